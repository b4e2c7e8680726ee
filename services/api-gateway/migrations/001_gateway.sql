CREATE TABLE gateway.businesses (
  id text PRIMARY KEY,
  name text NOT NULL,
  default_webhook_url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Keys are stored as SHA-256 hashes; the key itself is shown once, at creation.
CREATE TABLE gateway.api_keys (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES gateway.businesses (id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  key_hash text NOT NULL UNIQUE,
  last4 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE gateway.request_logs (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  api_key text,
  request_id text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  duration_ms integer NOT NULL,
  request_body jsonb,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX request_logs_by_created ON gateway.request_logs (business_id, mode, created_at DESC, id DESC);
