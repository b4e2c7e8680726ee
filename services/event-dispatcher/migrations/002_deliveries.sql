ALTER TABLE dispatcher.events ADD COLUMN policy text NOT NULL DEFAULT 'notification';
ALTER TABLE dispatcher.events ADD CONSTRAINT events_status CHECK (status IN ('pending', 'delivered', 'failed'));

-- One delivery per (event, webhook). seq is the order events were produced in: deliveries of one resource to one
-- webhook go strictly in seq order.
CREATE TABLE dispatcher.deliveries (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  event_id text NOT NULL REFERENCES dispatcher.events (id),
  webhook_id text NOT NULL,
  resource_id text NOT NULL,
  policy text NOT NULL CHECK (policy IN ('decision', 'notification')),
  status text NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  trigger text NOT NULL DEFAULT 'initial' CHECK (trigger IN ('initial', 'scheduled', 'manual')),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  first_attempt_at timestamptz,
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, webhook_id)
);
CREATE INDEX deliveries_due ON dispatcher.deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_unfinished ON dispatcher.deliveries (webhook_id, resource_id, seq)
  WHERE status IN ('pending', 'delivering');
CREATE INDEX deliveries_by_event ON dispatcher.deliveries (event_id);

CREATE TABLE dispatcher.attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES dispatcher.deliveries (id),
  event_id text NOT NULL,
  attempt_no integer NOT NULL,
  trigger text NOT NULL,
  url text NOT NULL,
  started_at timestamptz NOT NULL,
  http_status integer,
  latency_ms integer,
  response_excerpt text,
  error text
);
CREATE INDEX attempts_by_event ON dispatcher.attempts (event_id, id);
