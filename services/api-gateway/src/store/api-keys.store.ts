import type { Queryable } from "@cardhold/db";
import type { Mode } from "@cardhold/contracts";
import type { Permission } from "../domain/permissions";

/** What authentication needs of a key: never its hash beyond the lookup. */
export interface ActiveKeyRow {
  id: string;
  business_id: string;
  mode: Mode;
  /** null: full access. */
  permissions: Permission[] | null;
  delayed_requests: boolean;
}

export interface ApiKeyRecordRow {
  id: string;
  mode: Mode;
  name: string | null;
  last4: string;
  permissions: Permission[] | null;
  delayed_requests: boolean;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** The listed columns: never key_hash. */
const RECORD_COLUMNS = "id, mode, name, last4, permissions, delayed_requests, created_at, last_used_at, revoked_at";

export async function insertApiKey(
  db: Queryable,
  k: {
    id: string;
    businessId: string;
    mode: Mode;
    hash: string;
    last4: string;
    name?: string;
    permissions: readonly Permission[] | null;
    delayedRequests: boolean;
  },
): Promise<ApiKeyRecordRow> {
  const { rows } = await db.query<ApiKeyRecordRow & Record<string, unknown>>(
    `INSERT INTO gateway.api_keys (id, business_id, mode, key_hash, last4, name, permissions, delayed_requests)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${RECORD_COLUMNS}`,
    [k.id, k.businessId, k.mode, k.hash, k.last4, k.name ?? null, k.permissions, k.delayedRequests],
  );
  return rows[0]!;
}

export async function findActiveKey(db: Queryable, hash: string): Promise<ActiveKeyRow | undefined> {
  const { rows } = await db.query<ActiveKeyRow & Record<string, unknown>>(
    `SELECT id, business_id, mode, permissions, delayed_requests FROM gateway.api_keys
      WHERE key_hash = $1 AND revoked_at IS NULL`,
    [hash],
  );
  return rows[0];
}

/** A business's keys, newest first, revoked ones included. */
export async function listApiKeys(db: Queryable, businessId: string): Promise<ApiKeyRecordRow[]> {
  const { rows } = await db.query<ApiKeyRecordRow & Record<string, unknown>>(
    `SELECT ${RECORD_COLUMNS} FROM gateway.api_keys WHERE business_id = $1 ORDER BY created_at DESC, id DESC`,
    [businessId],
  );
  return rows;
}

/** One of a business's keys in one mode, or undefined. */
export async function findKeyInMode(
  db: Queryable,
  scope: { businessId: string; mode: Mode },
  keyId: string,
): Promise<ApiKeyRecordRow | undefined> {
  const { rows } = await db.query<ApiKeyRecordRow & Record<string, unknown>>(
    `SELECT ${RECORD_COLUMNS} FROM gateway.api_keys WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [keyId, scope.businessId, scope.mode],
  );
  return rows[0];
}

/**
 * Revokes a business's key (a key already revoked keeps its first revokedAt). Undefined when the business has no
 * such key. The hash is returned only so the caller can drop the key from its cache.
 */
export async function revokeApiKey(
  db: Queryable,
  businessId: string,
  keyId: string,
): Promise<{ record: ApiKeyRecordRow; hash: string } | undefined> {
  const { rows } = await db.query<ApiKeyRecordRow & { key_hash: string } & Record<string, unknown>>(
    `UPDATE gateway.api_keys SET revoked_at = coalesce(revoked_at, now())
      WHERE id = $1 AND business_id = $2 RETURNING ${RECORD_COLUMNS}, key_hash`,
    [keyId, businessId],
  );
  return withoutHash(rows[0]);
}

function withoutHash(row: (ApiKeyRecordRow & { key_hash: string }) | undefined) {
  if (!row) return undefined;
  const { key_hash: hash, ...record } = row;
  return { record, hash };
}

/** Turns a business's key's delayed requests on or off; undefined when the business has no such key. */
export async function setDelayedRequests(
  db: Queryable,
  businessId: string,
  keyId: string,
  on: boolean,
): Promise<{ record: ApiKeyRecordRow; hash: string } | undefined> {
  const { rows } = await db.query<ApiKeyRecordRow & { key_hash: string } & Record<string, unknown>>(
    `UPDATE gateway.api_keys SET delayed_requests = $3
      WHERE id = $1 AND business_id = $2 RETURNING ${RECORD_COLUMNS}, key_hash`,
    [keyId, businessId, on],
  );
  return withoutHash(rows[0]);
}

/** Records uses of keys; never moves last_used_at backwards. */
export async function touchApiKeys(db: Queryable, ids: string[], at: Date): Promise<void> {
  await db.query(
    `UPDATE gateway.api_keys SET last_used_at = $2
      WHERE id = ANY($1::text[]) AND (last_used_at IS NULL OR last_used_at < $2)`,
    [ids, at],
  );
}
