CREATE TABLE customers.customers (
  id text PRIMARY KEY,
  business_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  name text NOT NULL,
  reference text NOT NULL,
  type text NOT NULL CHECK (type IN ('individual', 'business')),
  status text NOT NULL DEFAULT 'active',
  claims jsonb NOT NULL,
  verifications jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT customers_reference_unique UNIQUE (business_id, mode, reference)
);

-- Default order and keyset paging: newest first within one business and mode.
CREATE INDEX customers_by_created ON customers.customers (business_id, mode, created_at DESC, id DESC);
-- metadata.key filters compile to containment (@>), which this index serves.
CREATE INDEX customers_metadata ON customers.customers USING gin (metadata jsonb_path_ops);
