ALTER TABLE webhooks.webhooks ADD COLUMN description text;
ALTER TABLE webhooks.webhooks ADD COLUMN api_version text;
ALTER TABLE webhooks.webhooks ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}';
ALTER TABLE webhooks.webhooks ADD COLUMN timeout_default text CHECK (timeout_default IN ('approve', 'decline'));
CREATE INDEX webhooks_by_created ON webhooks.webhooks (business_id, mode, created_at DESC, id DESC);
