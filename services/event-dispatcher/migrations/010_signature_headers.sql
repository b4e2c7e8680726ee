-- Extra header names a webhook's deliveries carry the Service-Signature value under (webhooks.v1 `signatureHeaders`;
-- messages from before it was added carry none).
ALTER TABLE dispatcher.webhooks ADD COLUMN signature_headers jsonb NOT NULL DEFAULT '[]';
