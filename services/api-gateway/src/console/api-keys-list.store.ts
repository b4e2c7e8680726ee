import type { Mode } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import { scopedResource } from "@cardhold/query";

/** A business's keys in one mode through the list query language (GET /api-keys); never the key or its hash. */
export const apiKeyListResource = scopedResource("API key", "gateway.api_keys", {
  id: { type: "id", column: "id", sortable: true },
  name: { type: "string", column: "name", sortable: true, nullable: true },
  last4: { type: "string", column: "last4" },
  // text[], not the JSONB the language filters arrays as: shown, not filtered on.
  permissions: { type: "array", column: "permissions", filterable: false },
  delayedRequests: { type: "boolean", column: "delayed_requests" },
  createdAt: { type: "date", column: "created_at", sortable: true },
  lastUsedAt: { type: "date", column: "last_used_at", sortable: true, nullable: true },
  revokedAt: { type: "date", column: "revoked_at", sortable: true, nullable: true },
});

/** Whether the business has this key in this mode (a key of the other mode is not the caller's to manage). */
export async function keyExistsInMode(
  db: Queryable,
  scope: { businessId: string; mode: Mode },
  keyId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    "SELECT 1 FROM gateway.api_keys WHERE id = $1 AND business_id = $2 AND mode = $3",
    [keyId, scope.businessId, scope.mode],
  );
  return rowCount === 1;
}
