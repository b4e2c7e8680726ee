-- Named, restricted keys and when each was last used (admin key API, issue 11 item 4).
-- permissions NULL: full access (every key made before this migration); otherwise the list the key may use.
ALTER TABLE gateway.api_keys
  ADD COLUMN name text,
  ADD COLUMN permissions text[],
  ADD COLUMN last_used_at timestamptz;

CREATE INDEX api_keys_by_business ON gateway.api_keys (business_id, created_at DESC, id DESC);
