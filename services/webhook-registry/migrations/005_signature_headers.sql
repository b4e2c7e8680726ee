-- Extra header names each delivery carries the Service-Signature value under (e.g. Acme-Signature: receivers written
-- for the original provider read the signature from a header named after it). Kept as the business wrote them; the
-- registry checks them (HTTP token characters, none of the headers a delivery already carries, at most a few).
ALTER TABLE webhooks.webhooks ADD COLUMN signature_headers jsonb NOT NULL DEFAULT '[]';
