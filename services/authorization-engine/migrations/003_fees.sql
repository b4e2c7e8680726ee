-- Fees (`fee.` ids): a flat amount or a percentage of the amount (with an optional cap), paid into an account. A fee
-- cannot be changed once made, so a card program copies its transaction fee's terms onto its own row when it is
-- created or replaced: an authorization reads them with the program, in the one read it already makes.
CREATE TABLE engine.fees (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  name text NOT NULL,
  description text,
  structure text NOT NULL CHECK (structure IN ('flat', 'percentage')),
  currency text NOT NULL,
  -- flat: minor units; percentage: 1.5 = 1.5 %.
  value numeric NOT NULL CHECK (value >= 0),
  cap bigint CHECK (cap >= 0),
  account_id text NOT NULL REFERENCES engine.accounts (id),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX fees_by_created ON engine.fees (business_id, mode, created_at DESC, id DESC);

-- A program naming a fee: the fee's id and terms, and the account it is paid into. NULL terms: the program's
-- transaction_fee (minor units, the form accepted before fees existed) is its flat fee, and its fees account is
-- its settlement account.
ALTER TABLE engine.card_programs
  ADD COLUMN transaction_fee_id text,
  ADD COLUMN transaction_fee_structure text CHECK (transaction_fee_structure IN ('flat', 'percentage')),
  ADD COLUMN transaction_fee_value numeric CHECK (transaction_fee_value >= 0),
  ADD COLUMN transaction_fee_cap bigint CHECK (transaction_fee_cap >= 0),
  ADD COLUMN fees_account_id text;
