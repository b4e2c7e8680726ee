-- FX quotes (POST /tools/fx/quotes): what funding a card in `to_currency` from an account in `from_currency` costs.
-- The hash is the quote's unguessable id, sent back as `fxHash`; a quote funds once (used_at) and only until
-- expires_at. rate: units of `to` one unit of `from` buys, exact (at most 8 decimals); amount (minor units of `to`) is
-- what the card gets, debit_amount (minor units of `from`) what the debit source pays: the exact cost rounded up.
CREATE TABLE engine.fx_quotes (
  hash text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  from_currency text NOT NULL,
  to_currency text NOT NULL CHECK (to_currency <> from_currency),
  rate numeric NOT NULL CHECK (rate > 0 AND scale(rate) <= 8),
  provider text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  debit_amount bigint NOT NULL CHECK (debit_amount > 0),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- The card the quote funded.
  used_for text,
  CHECK ((used_at IS NULL) = (used_for IS NULL))
);

-- fx-conversion: a system account per business, mode and currency, the other side of both legs of a conversion (the
-- debit source pays into the one of its currency, the card is paid from the one of its own). Like network-clearing
-- and external it is not shown by the API, keeps no running balance and may go below zero: per currency, the sum of
-- its entries is the platform's position in that currency.
ALTER TABLE engine.accounts DROP CONSTRAINT accounts_role_check;
ALTER TABLE engine.accounts ADD CONSTRAINT accounts_role_check
  CHECK (role IN ('settlement', 'customer', 'card', 'virtual', 'network-clearing', 'external', 'fx-conversion'));
ALTER TABLE engine.accounts DROP CONSTRAINT accounts_funded;
ALTER TABLE engine.accounts ADD CONSTRAINT accounts_funded
  CHECK (role IN ('network-clearing', 'external', 'fx-conversion') OR posted - held >= 0);
DROP INDEX engine.accounts_one_per_currency;
CREATE UNIQUE INDEX accounts_one_per_currency ON engine.accounts (business_id, mode, currency, role)
  WHERE role IN ('settlement', 'network-clearing', 'external', 'fx-conversion');
CREATE OR REPLACE VIEW engine.business_accounts AS
  SELECT * FROM engine.accounts WHERE role NOT IN ('network-clearing', 'external', 'fx-conversion');
