import type { WebhookConfig } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";

/** The engine's copy of webhooks.v1: which webhook answers decisions, for its timeoutDefault. */
export async function upsertWebhook(db: Queryable, businessId: string, mode: string, w: WebhookConfig): Promise<void> {
  await db.query(
    `INSERT INTO engine.webhooks (id, business_id, mode, events, status, is_default, timeout_default)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (id) DO UPDATE SET events = EXCLUDED.events, status = EXCLUDED.status, is_default = EXCLUDED.is_default,
       timeout_default = EXCLUDED.timeout_default`,
    [w.id, businessId, mode, JSON.stringify(w.events), w.status, w.isDefault, w.timeoutDefault ?? null],
  );
}

export async function deleteWebhook(db: Queryable, id: string): Promise<void> {
  await db.query("DELETE FROM engine.webhooks WHERE id = $1", [id]);
}

/**
 * The timeoutDefault of the webhook that receives card.authorization.request for this business and mode (interface
 * Rule 8: an enabled webhook naming the kind, else the default one) — or of `webhookId` when the program names one.
 */
export async function webhookTimeoutDefault(db: Queryable, scope: { businessId: string; mode: string }, webhookId: string | null): Promise<"approve" | "decline" | null> {
  const { rows } = await db.query<{ timeout_default: "approve" | "decline" | null }>(
    `SELECT timeout_default FROM engine.webhooks
      WHERE business_id = $1 AND mode = $2 AND (
        CASE WHEN $3::text IS NOT NULL THEN id = $3
             ELSE (status = 'enabled' AND NOT is_default AND events ? 'card.authorization.request') OR is_default END)
      ORDER BY is_default LIMIT 1`,
    [scope.businessId, scope.mode, webhookId],
  );
  return rows[0]?.timeout_default ?? null;
}
