CREATE TABLE bills.payments (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  type text NOT NULL DEFAULT 'bill',
  method text NOT NULL DEFAULT 'bill',
  status text NOT NULL CHECK (status IN ('debiting', 'processing', 'refunding', 'successful', 'failed')),
  biller_status text NOT NULL CHECK (biller_status IN ('not-called', 'pending', 'unknown', 'successful', 'failed')),
  -- Checks made in the current status (ledger resends, biller queries); the next delay grows with it.
  attempts integer NOT NULL DEFAULT 0,
  -- Bumped by every change and by the worker's claim, so a stale worker's answer is dropped.
  version integer NOT NULL DEFAULT 0,
  -- When the worker looks at the payment next; NULL once it is final.
  next_check_at timestamptz,
  amount bigint NOT NULL CHECK (amount > 0),
  fee bigint NOT NULL CHECK (fee >= 0),
  fee_breakdown jsonb NOT NULL DEFAULT '[]',
  currency text NOT NULL,
  product text NOT NULL,
  method_data jsonb NOT NULL,
  funding_source jsonb NOT NULL,
  account text,
  customer text,
  reference text,
  failure_reason text,
  events jsonb NOT NULL DEFAULT '[]',
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- A reference names one payment per business and mode: sending it again returns that payment.
CREATE UNIQUE INDEX payments_reference_unique ON bills.payments (business_id, mode, reference) WHERE reference IS NOT NULL;
-- Default order and keyset paging: newest first within one business and mode.
CREATE INDEX payments_by_created ON bills.payments (business_id, mode, created_at DESC, id DESC);
CREATE INDEX payments_metadata ON bills.payments USING gin (metadata jsonb_path_ops);
-- The worker's queue: payments that are not final, by when they are due.
CREATE INDEX payments_due ON bills.payments (next_check_at) WHERE next_check_at IS NOT NULL;

-- The sandbox biller's own orders (it stands in for an external biller, so it knows no businesses).
CREATE TABLE bills.sandbox_orders (
  reference text PRIMARY KEY,
  product text NOT NULL,
  account_number text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('successful', 'failed')),
  failure_reason text,
  output jsonb,
  biller_reference text NOT NULL,
  resolves_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
