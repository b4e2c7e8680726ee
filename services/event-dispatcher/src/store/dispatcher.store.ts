import type { Queryable } from "@cardhold/db";
import type { EventPublishedMessage, WebhookChangedMessage } from "@cardhold/contracts";

export const SCHEMA = "dispatcher";

export async function upsertWebhook(db: Queryable, m: WebhookChangedMessage): Promise<void> {
  const w = m.data;
  await db.query(
    `INSERT INTO dispatcher.webhooks (id, business_id, mode, url, events, signing_key, status, is_default, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, events = EXCLUDED.events, signing_key = EXCLUDED.signing_key,
       status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
     WHERE dispatcher.webhooks.updated_at <= EXCLUDED.updated_at`,
    [w.id, m.businessId, m.mode, w.url, JSON.stringify(w.events), w.signingKey, w.status, w.isDefault, m.occurredAt],
  );
}

export async function deleteWebhook(db: Queryable, id: string): Promise<void> {
  await db.query("DELETE FROM dispatcher.webhooks WHERE id = $1", [id]);
}

export async function insertEvent(db: Queryable, m: EventPublishedMessage): Promise<void> {
  const { envelope, resourceId } = m.data;
  await db.query(
    `INSERT INTO dispatcher.events (id, business_id, mode, kind, resource_id, envelope)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
    [envelope.metadata.event, m.businessId, m.mode, envelope.event, resourceId, JSON.stringify(envelope)],
  );
}
