-- The routing table keeps each webhook's signing key sealed (AES-256-GCM under SECRETS_KEY, bound to the webhook id),
-- as webhooks.v1 now carries it. SQL has no access to the key, so the service seals the rows still holding a plain
-- key (from older messages) when it starts and clears the plain column; the worker opens a key only to sign.
ALTER TABLE dispatcher.webhooks ADD COLUMN sealed_signing_key text;
ALTER TABLE dispatcher.webhooks ALTER COLUMN signing_key DROP NOT NULL;
