-- The payment defaults of a business in one mode (PUT /tools/configuration/payment). No row: nothing configured.
CREATE TABLE bills.payment_configurations (
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  pay_in_account text,
  pay_out_account text,
  bank_transfer_fee text,
  bill_payment_fee text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (business_id, mode)
);

-- The authorization engine's fees as fees.v1 announces them: what a configured fee id names and charges. A fee never
-- changes once made, so a row is written once.
CREATE TABLE bills.fees (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  name text NOT NULL,
  structure text NOT NULL CHECK (structure IN ('flat', 'percentage')),
  currency text NOT NULL,
  -- flat: minor units; percentage: 1.5 = 1.5 %.
  value numeric NOT NULL CHECK (value >= 0),
  cap bigint CHECK (cap >= 0),
  account text NOT NULL,
  created_at timestamptz NOT NULL
);
