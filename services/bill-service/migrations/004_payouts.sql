-- Payouts (POST /payments/payouts) are payments too: type 'pay-out', method 'bank-transfer', no bill product. They
-- share the payments table, its states, its worker and its ledger commands; the bank rail plays the biller's part
-- (biller_status is where the transfer stands at the rail).
ALTER TABLE bills.payments ALTER COLUMN product DROP NOT NULL;
ALTER TABLE bills.payments ADD CONSTRAINT payments_type_known CHECK (type IN ('bill', 'pay-out'));
ALTER TABLE bills.payments ADD CONSTRAINT payments_bill_has_product CHECK ((type = 'bill') = (product IS NOT NULL));

-- The sandbox bank rail's own transfers (it stands in for NIBSS, so it knows no businesses), keyed by the payout id:
-- sending a payout again answers about the first transfer and never makes a second one.
CREATE TABLE bills.sandbox_transfers (
  reference text PRIMARY KEY,
  bank_code text NOT NULL,
  account_number text NOT NULL,
  account_name text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  narration text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('successful', 'failed')),
  failure_reason text,
  session_id text NOT NULL,
  -- Until then the transfer is pending; NULL when it was final at once.
  resolves_at timestamptz,
  -- How many times the rail was asked to send it: every ask after the first only answers about the first.
  sends integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);
