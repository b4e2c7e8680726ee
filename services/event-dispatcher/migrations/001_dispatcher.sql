-- The routing table: the dispatcher's copy of webhooks.v1.
CREATE TABLE dispatcher.webhooks (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  url text NOT NULL,
  events jsonb NOT NULL,
  signing_key text NOT NULL,
  status text NOT NULL,
  is_default boolean NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX dispatcher_webhooks_by_business ON dispatcher.webhooks (business_id, mode);

-- Every customer-facing event, as it will be delivered (the exact envelope bytes).
CREATE TABLE dispatcher.events (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL,
  kind text NOT NULL,
  resource_id text NOT NULL,
  envelope text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dispatcher_events_by_created ON dispatcher.events (business_id, mode, created_at DESC, id DESC);
