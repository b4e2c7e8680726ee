-- Delayed requests ("GRP", issue 16 item 9): a key's option to answer a slow write 202 and keep its answer here.
ALTER TABLE gateway.api_keys ADD COLUMN delayed_requests boolean NOT NULL DEFAULT false;

-- id is the request's x-request-id; a client may choose its own, so it is unique per business and mode only.
-- response_body is the service's answer as sent, for the business to read back (GET /requests/:id).
CREATE TABLE gateway.delayed_requests (
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  id text NOT NULL,
  api_key text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  status_code integer,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (business_id, mode, id),
  CHECK ((status = 'processing') = (completed_at IS NULL))
);
-- The sweep that fails requests a stopped gateway left processing (src/delayed-requests.ts).
CREATE INDEX delayed_requests_processing ON gateway.delayed_requests (created_at) WHERE status = 'processing';

-- The operator's charges to a business (GET /billings; created through the admin API).
CREATE TABLE gateway.billings (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES gateway.businesses (id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  description text NOT NULL,
  period jsonb,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'void')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billings_by_created ON gateway.billings (business_id, mode, created_at DESC, id DESC);
