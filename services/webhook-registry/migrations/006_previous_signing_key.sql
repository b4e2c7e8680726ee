-- A roll keeps the key it replaced, sealed like the current one, for 24 h: until then deliveries' Standard Webhooks
-- `webhook-signature` carries a signature under it too, so a receiver still holding the old key keeps verifying while
-- it takes the new one. The next roll replaces it; both columns are set together or not at all.
ALTER TABLE webhooks.webhooks ADD COLUMN sealed_previous_signing_key text;
ALTER TABLE webhooks.webhooks ADD COLUMN previous_signing_key_expires_at timestamptz;
ALTER TABLE webhooks.webhooks ADD CONSTRAINT webhooks_previous_key_has_expiry
  CHECK ((sealed_previous_signing_key IS NULL) = (previous_signing_key_expires_at IS NULL));
