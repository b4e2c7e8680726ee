-- Disputes (`dsp.` ids) of card transactions: one per disputed authorization at a time while open. open → won | lost
-- (the network's outcome) | closed (withdrawn by the business); only an open dispute changes (domain/dispute.ts).
-- amount: minor units disputed; provisional_credit: what was credited to the cardholder's account (account_id) when
-- it opened; owed: of a provisional credit taken back (lost, closed), what that account could not cover.
CREATE TABLE engine.disputes (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  authorization_id text NOT NULL,
  card_id text NOT NULL,
  customer_id text NOT NULL,
  account_id text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('fraudulent', 'duplicate', 'value-not-received', 'general')),
  text text,
  documents jsonb NOT NULL DEFAULT '[]',
  user_id text,
  status text NOT NULL CHECK (status IN ('open', 'won', 'lost', 'closed')),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  provisional_credit bigint NOT NULL DEFAULT 0 CHECK (provisional_credit >= 0 AND provisional_credit <= amount),
  owed bigint NOT NULL DEFAULT 0 CHECK (owed >= 0 AND owed <= provisional_credit),
  -- The disputed authorization's webhook (its program's), where the dispute's events go too; null: the default one.
  webhook_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX disputes_by_created ON engine.disputes (business_id, mode, created_at DESC, id DESC);
CREATE INDEX disputes_by_authorization ON engine.disputes (authorization_id);
-- The last line of defence of "one open dispute per transaction": the engine checks first, the authorization locked.
CREATE UNIQUE INDEX disputes_one_open ON engine.disputes (authorization_id) WHERE status = 'open';

-- A card program's disputes settings: whether a dispute credits the cardholder at once (provisional credit), and for
-- how many days after an authorization it can be disputed.
ALTER TABLE engine.card_programs
  ADD COLUMN dispute_provisional_credit boolean NOT NULL DEFAULT false,
  ADD COLUMN dispute_window_days integer NOT NULL DEFAULT 120 CHECK (dispute_window_days BETWEEN 1 AND 3650);

-- disputes: a system account per business, mode and currency that provisional credits are paid from, and that a won
-- dispute's chargeback (from network clearing) pays back. Like the other system accounts it is not shown by the API,
-- keeps no running balance and may go below zero: the sum of its entries is the provisional credit outstanding (and
-- what cardholders owe of credits taken back).
ALTER TABLE engine.accounts DROP CONSTRAINT accounts_role_check;
ALTER TABLE engine.accounts ADD CONSTRAINT accounts_role_check
  CHECK (role IN ('settlement', 'customer', 'card', 'virtual', 'network-clearing', 'external', 'fx-conversion', 'disputes'));
ALTER TABLE engine.accounts DROP CONSTRAINT accounts_funded;
ALTER TABLE engine.accounts ADD CONSTRAINT accounts_funded
  CHECK (role IN ('network-clearing', 'external', 'fx-conversion', 'disputes') OR posted - held >= 0);
DROP INDEX engine.accounts_one_per_currency;
CREATE UNIQUE INDEX accounts_one_per_currency ON engine.accounts (business_id, mode, currency, role)
  WHERE role IN ('settlement', 'network-clearing', 'external', 'fx-conversion', 'disputes');
CREATE OR REPLACE VIEW engine.business_accounts AS
  SELECT * FROM engine.accounts WHERE role NOT IN ('network-clearing', 'external', 'fx-conversion', 'disputes');
