-- Signing keys are kept sealed (AES-256-GCM under SECRETS_KEY, bound to the webhook id, `v1:` text format), never in
-- plain. SQL has no access to the key, so the service seals the rows still holding a plain key when it starts
-- (signing_key set, sealed_signing_key not yet), clears the plain column and queues them for publishing again on
-- webhooks.v1, sealed (the compacted topic then drops the plain versions). New rows only ever set sealed_signing_key.
ALTER TABLE webhooks.webhooks ADD COLUMN sealed_signing_key text;
ALTER TABLE webhooks.webhooks ALTER COLUMN signing_key DROP NOT NULL;
ALTER TABLE webhooks.webhooks ADD CONSTRAINT webhooks_has_signing_key
  CHECK (signing_key IS NOT NULL OR sealed_signing_key IS NOT NULL);
