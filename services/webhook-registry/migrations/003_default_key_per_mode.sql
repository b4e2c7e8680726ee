-- Each mode's default webhook gets its own signing key. The two defaults of a business used to share one, so a
-- test key could read (GET /webhooks/:id/secret) the key that signs live events and forge live deliveries.
--
-- Webhooks whose configuration a migration changed behind the use cases' back: the service publishes each one's
-- current configuration on webhooks.v1 when it starts (through its outbox, like any change) and empties the queue,
-- so the dispatcher's copy, which it signs with, follows.
CREATE TABLE webhooks.republish (
  webhook_id text PRIMARY KEY REFERENCES webhooks.webhooks (id) ON DELETE CASCADE
);

-- A business whose defaults still share a key keeps it for live (its production receiver goes on verifying) and
-- gets a fresh one for test: 64 hex characters like the service's generated keys, sha256 over two
-- gen_random_uuid() (pg_strong_random, 244 random bits; pgcrypto's gen_random_bytes is not installed everywhere).
-- updated_at moves on, so the republished configuration supersedes the old one in every copy of webhooks.v1.
WITH rekeyed AS (
  UPDATE webhooks.webhooks test
     SET signing_key = encode(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea), 'hex'),
         updated_at = clock_timestamp()
    FROM webhooks.webhooks live
   WHERE test.is_default AND test.mode = 'test'
     AND live.is_default AND live.mode = 'live'
     AND live.business_id = test.business_id
     AND live.signing_key = test.signing_key
  RETURNING test.id
)
INSERT INTO webhooks.republish (webhook_id) SELECT id FROM rekeyed;
