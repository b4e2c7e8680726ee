import type { Queryable } from "@cardhold/db";
import type { WebhookConfig } from "@cardhold/contracts";

export const SCHEMA = "webhooks";

/** Inserts the default webhook of a business and mode; returns undefined when it already exists. */
export async function insertDefaultWebhook(
  db: Queryable,
  w: { id: string; businessId: string; mode: string; url: string; signingKey: string },
): Promise<WebhookConfig | undefined> {
  const { rows } = await db.query<{ id: string; url: string; signing_key: string }>(
    `INSERT INTO webhooks.webhooks (id, business_id, mode, name, url, signing_key, status, is_default)
     VALUES ($1, $2, $3, 'default', $4, $5, 'enabled', true)
     ON CONFLICT DO NOTHING RETURNING id, url, signing_key`,
    [w.id, w.businessId, w.mode, w.url, w.signingKey],
  );
  const row = rows[0];
  return row && { id: row.id, url: row.url, events: [], signingKey: row.signing_key, status: "enabled", isDefault: true };
}
