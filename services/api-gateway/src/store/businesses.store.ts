import type { Queryable } from "@cardhold/db";
import { scopedResource } from "@cardhold/query";

export const SCHEMA = "gateway";

export async function insertBusiness(
  db: Queryable,
  b: { id: string; name: string; webhookUrl: string; createdAt: Date },
) {
  await db.query("INSERT INTO gateway.businesses (id, name, default_webhook_url, created_at) VALUES ($1, $2, $3, $4)", [
    b.id,
    b.name,
    b.webhookUrl,
    b.createdAt,
  ]);
}

export async function businessExists(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query("SELECT 1 FROM gateway.businesses WHERE id = $1", [id]);
  return rowCount === 1;
}

/** API keys as a related resource of request logs (`expand=apiKey`); never includes the key or its hash. */
export const apiKeyResource = scopedResource("apiKey", "gateway.api_keys", {
  id: { type: "id", column: "id" },
  mode: { type: "string", column: "mode" },
  last4: { type: "string", column: "last4" },
  createdAt: { type: "date", column: "created_at" },
});

export async function loadApiKeys(db: Queryable, ids: string[], scope: { businessId: string; mode: string }) {
  const { rows } = await db.query<{
    id: string;
    mode: string;
    last4: string;
    created_at: Date;
    revoked_at: Date | null;
  }>(
    `SELECT id, mode, last4, created_at, revoked_at FROM gateway.api_keys
      WHERE id = ANY($1::text[]) AND business_id = $2 AND mode = $3`,
    [ids, scope.businessId, scope.mode],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        object: "apiKey",
        mode: r.mode,
        last4: r.last4,
        createdAt: r.created_at.toISOString(),
        revokedAt: r.revoked_at?.toISOString() ?? null,
      } as Record<string, unknown>,
    ]),
  );
}
