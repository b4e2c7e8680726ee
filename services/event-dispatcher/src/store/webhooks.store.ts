import type { Queryable } from "@cardhold/db";
import type { WebhookChangedMessage } from "@cardhold/contracts";
import type { RouteCandidate } from "../domain/routing";

export const SCHEMA = "dispatcher";

/**
 * The routing table: the dispatcher's copy of webhooks.v1 (extra signature header names included), the signing key
 * sealed (as the message carries it, or sealed here when an older message carried it in plain), and the key a roll
 * replaced with when it stops signing (sealed as the message carries it; none when it carries none). Older versions
 * never overwrite newer ones.
 */
export async function upsertWebhook(db: Queryable, m: WebhookChangedMessage, sealedSigningKey: string): Promise<void> {
  const w = m.data;
  await db.query(
    `INSERT INTO dispatcher.webhooks (id, business_id, mode, url, events, sealed_signing_key, status, is_default, updated_at,
       signature_headers, sealed_previous_signing_key, previous_signing_key_expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, events = EXCLUDED.events,
       sealed_signing_key = EXCLUDED.sealed_signing_key, signing_key = NULL, status = EXCLUDED.status,
       updated_at = EXCLUDED.updated_at, signature_headers = EXCLUDED.signature_headers,
       sealed_previous_signing_key = EXCLUDED.sealed_previous_signing_key,
       previous_signing_key_expires_at = EXCLUDED.previous_signing_key_expires_at
     WHERE dispatcher.webhooks.updated_at <= EXCLUDED.updated_at`,
    [
      w.id,
      m.businessId,
      m.mode,
      w.url,
      JSON.stringify(w.events),
      sealedSigningKey,
      w.status,
      w.isDefault,
      m.occurredAt,
      JSON.stringify(w.signatureHeaders ?? []),
      w.sealedPreviousSigningKey && w.previousSigningKeyExpiresAt ? w.sealedPreviousSigningKey : null,
      w.sealedPreviousSigningKey && w.previousSigningKeyExpiresAt ? w.previousSigningKeyExpiresAt : null,
    ],
  );
}

export async function deleteWebhook(db: Queryable, id: string): Promise<void> {
  await db.query("DELETE FROM dispatcher.webhooks WHERE id = $1", [id]);
}

/** The webhook, when the routing table holds it for this business and mode. */
export async function findWebhook(
  db: Queryable,
  scope: { businessId: string; mode: string },
  id: string,
): Promise<{ id: string } | undefined> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM dispatcher.webhooks WHERE id = $1 AND business_id = $2 AND mode = $3",
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

export async function webhooksOf(db: Queryable, businessId: string, mode: string): Promise<RouteCandidate[]> {
  const { rows } = await db.query<{
    id: string;
    events: string[];
    status: RouteCandidate["status"];
    is_default: boolean;
  }>("SELECT id, events, status, is_default FROM dispatcher.webhooks WHERE business_id = $1 AND mode = $2", [
    businessId,
    mode,
  ]);
  return rows.map((r) => ({ id: r.id, events: r.events, status: r.status, isDefault: r.is_default }));
}
