-- Payment requests (`preq.` ids): a single-use virtual account expecting one exact amount (compatibility notes,
-- "Payment requests"). pending → completed when exactly `amount` is paid in (the money lands in account_id and the
-- virtual account closes); any other pay-in to the account — a wrong amount, or one after completion — goes straight
-- back to the payer (movements pay-in and pay-in-refund on the virtual account, which ends at zero again).
CREATE TABLE engine.payment_requests (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  method text NOT NULL,
  -- {name, bank?} as given: the account's name and the bank asked for.
  options jsonb NOT NULL,
  currency text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  customer_id text,
  reference text,
  metadata jsonb NOT NULL DEFAULT '{}',
  -- Where the money lands: the account given, else the business's default account in the currency.
  account_id text NOT NULL,
  -- The request's own virtual account (settling into account_id) and its bank account as made with it.
  virtual_account_id text NOT NULL UNIQUE,
  bank_account jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'completed')),
  paid_at timestamptz,
  -- The completing pay-in: its sender's reference (if it had one) and its ledger movement.
  payment_reference text,
  payment_movement_id text,
  refunded_payments integer NOT NULL DEFAULT 0 CHECK (refunded_payments >= 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT payment_requests_paid_when_completed CHECK ((status = 'completed') = (paid_at IS NOT NULL))
);
CREATE INDEX payment_requests_by_created ON engine.payment_requests (business_id, mode, created_at DESC, id DESC);
CREATE UNIQUE INDEX payment_requests_reference ON engine.payment_requests (business_id, mode, reference)
  WHERE reference IS NOT NULL;
