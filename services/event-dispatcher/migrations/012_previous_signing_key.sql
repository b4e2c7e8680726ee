-- The key a roll replaced (webhooks.v1 `sealedPreviousSigningKey`, sealed) and when it stops signing: until then each
-- delivery's `webhook-signature` carries a Standard Webhooks signature under it beside the new key's. Messages from
-- before it was added carry none.
ALTER TABLE dispatcher.webhooks ADD COLUMN sealed_previous_signing_key text;
ALTER TABLE dispatcher.webhooks ADD COLUMN previous_signing_key_expires_at timestamptz;
