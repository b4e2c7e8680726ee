CREATE TABLE webhooks.webhooks (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  name text NOT NULL,
  url text NOT NULL,
  events jsonb NOT NULL DEFAULT '[]',
  signing_key text NOT NULL,
  status text NOT NULL CHECK (status IN ('created', 'enabled', 'disabled')),
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One default webhook per business and mode: it receives every event no enabled webhook covers.
CREATE UNIQUE INDEX webhooks_one_default ON webhooks.webhooks (business_id, mode) WHERE is_default;
