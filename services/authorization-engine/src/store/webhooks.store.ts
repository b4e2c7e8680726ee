import type { WebhookConfig } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";

/** The engine's copy of webhooks.v1: which webhook answers decisions, for its timeoutDefault and stand-in rules. */
export async function upsertWebhook(db: Queryable, businessId: string, mode: string, w: WebhookConfig): Promise<void> {
  await db.query(
    `INSERT INTO engine.webhooks (id, business_id, mode, events, status, is_default, timeout_default, stand_in)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET events = EXCLUDED.events, status = EXCLUDED.status, is_default = EXCLUDED.is_default,
       timeout_default = EXCLUDED.timeout_default, stand_in = EXCLUDED.stand_in`,
    [
      w.id,
      businessId,
      mode,
      JSON.stringify(w.events),
      w.status,
      w.isDefault,
      w.timeoutDefault ?? null,
      w.standIn ? JSON.stringify(w.standIn) : null,
    ],
  );
}

export async function deleteWebhook(db: Queryable, id: string): Promise<void> {
  await db.query("DELETE FROM engine.webhooks WHERE id = $1", [id]);
}
