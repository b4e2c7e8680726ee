import { z } from "zod";
import type { Logger } from "pino";
import type { Mode } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { newId, notFound, validate } from "@cardhold/platform";
import { generateApiKey, hashApiKey, parseApiKey } from "./domain/api-key";
import { PERMISSIONS, type KeyPermissions, type Permission } from "./domain/permissions";
import {
  findActiveKey,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  setDelayedRequests,
  touchApiKeys,
  type ApiKeyRecordRow,
} from "./store/api-keys.store";
import { businessExists } from "./store/businesses.store";

/** Strict: a misspelt `permissions` must not quietly make a full-access key. */
export const createKeySchema = z.strictObject({
  mode: z.enum(["test", "live"]),
  name: z.string().trim().min(1).max(100).optional(),
  permissions: z
    .array(z.enum(PERMISSIONS))
    .min(1, "must list at least one permission; leave it out for a full-access key")
    .refine((list) => new Set(list).size === list.length, "must not repeat a permission")
    .optional(),
  delayedRequests: z
    .boolean()
    .describe(
      "A write that takes longer than the gateway's threshold answers 202 request-accepted (GET /requests/{id})",
    )
    .optional(),
});

/** The one setting of a key that can change after it was made. */
export const updateKeySchema = z.strictObject({ delayedRequests: z.boolean() });

export interface Caller {
  keyId: string;
  businessId: string;
  mode: Mode;
  /** null: full access. */
  permissions: KeyPermissions;
  /** A slow write answers 202 and finishes in the background (src/delayed-requests.ts); off: it fails fast. */
  delayedRequests: boolean;
}

/**
 * How long a key's lookup is trusted. A revoked key stops working on this gateway at once (its entry is dropped) and
 * on every other gateway instance sharing the database within this time.
 */
export const KEY_CACHE_MS = 1_000;
/** lastUsedAt is written at most this often per key and gateway instance. */
export const LAST_USED_EVERY_MS = 60_000;
const MAX_ENTRIES = 10_000;

export interface ApiKeyView {
  id: string;
  object: "apiKey";
  mode: Mode;
  name: string | null;
  last4: string;
  permissions: Permission[] | null;
  delayedRequests: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function view(row: ApiKeyRecordRow): ApiKeyView {
  return {
    id: row.id,
    object: "apiKey",
    mode: row.mode,
    name: row.name,
    last4: row.last4,
    permissions: row.permissions,
    delayedRequests: row.delayed_requests,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

/** A key as the API shows it (never its secret or hash). */
export const apiKeyView = view;

/** Writes lastUsedAt off the request path: at most once a minute per key, batched. */
function lastUsedRecorder(db: Db, logger: Logger | undefined) {
  const written = new Map<string, number>();
  let pending = new Set<string>();

  const flush = () => {
    const ids = [...pending];
    pending = new Set();
    touchApiKeys(db, ids, new Date()).catch((err: unknown) => logger?.warn({ err }, "api key lastUsedAt not written"));
  };

  return (keyId: string) => {
    const now = Date.now();
    const last = written.get(keyId);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    if (written.size >= MAX_ENTRIES) {
      for (const [id, at] of written) if (now - at >= LAST_USED_EVERY_MS) written.delete(id);
    }
    written.set(keyId, now);
    if (pending.size === 0) setImmediate(flush);
    pending.add(keyId);
  };
}

export function apiKeyUseCases(db: Db, logger?: Logger) {
  const cache = new Map<string, { caller: Caller | undefined; until: number }>();
  const lookups = new Map<string, Promise<Caller | undefined>>();
  const recordUse = lastUsedRecorder(db, logger);

  const lookup = async (hash: string): Promise<Caller | undefined> => {
    // Stamped before the query: the answer reflects the database as of no earlier than this instant.
    const readAt = Date.now();
    const row = await findActiveKey(db, hash);
    const caller = row && {
      keyId: row.id,
      businessId: row.business_id,
      mode: row.mode,
      permissions: row.permissions,
      delayedRequests: row.delayed_requests,
    };
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(hash, { caller, until: readAt + KEY_CACHE_MS });
    return caller;
  };

  const requireBusiness = async (businessId: string) => {
    if (!(await businessExists(db, businessId))) throw notFound("Business", businessId);
  };

  /** Issues a key inside the caller's transaction or on the pool; the secret is returned once. */
  const issueKey = async (
    q: Queryable,
    businessId: string,
    input: { mode: Mode; name?: string; permissions?: Permission[]; delayedRequests?: boolean },
  ) => {
    const key = generateApiKey(input.mode);
    const row = await insertApiKey(q, {
      id: newId("apiKey"),
      businessId,
      mode: input.mode,
      hash: hashApiKey(key),
      last4: key.slice(-4),
      name: input.name,
      permissions: input.permissions ?? null,
      delayedRequests: input.delayedRequests ?? false,
    });
    return { ...view(row), key };
  };

  return {
    issueKey,

    /** Marks a key used (lastUsedAt, at most once a minute): a request made with it by other means, the console's. */
    recordUse,

    async createKey(businessId: string, body: unknown) {
      const input = validate(createKeySchema, body);
      await requireBusiness(businessId);
      return issueKey(db, businessId, input);
    },

    async listKeys(businessId: string): Promise<ApiKeyView[]> {
      await requireBusiness(businessId);
      return (await listApiKeys(db, businessId)).map(view);
    },

    /** Idempotent; 404 for a key of another business. Effective here at once, on other instances within KEY_CACHE_MS. */
    async revokeKey(businessId: string, keyId: string): Promise<ApiKeyView> {
      await requireBusiness(businessId);
      const revoked = await revokeApiKey(db, businessId, keyId);
      if (!revoked) throw notFound("API key", keyId);
      cache.delete(revoked.hash);
      return view(revoked.record);
    },

    /** Turns the key's delayed requests on or off: here at once, on other instances within KEY_CACHE_MS. */
    async updateKey(businessId: string, keyId: string, body: unknown): Promise<ApiKeyView> {
      const input = validate(updateKeySchema, body);
      await requireBusiness(businessId);
      const updated = await setDelayedRequests(db, businessId, keyId, input.delayedRequests);
      if (!updated) throw notFound("API key", keyId);
      cache.delete(updated.hash);
      return view(updated.record);
    },

    /**
     * The caller a secret key stands for, or undefined. A cache hit touches no database; a miss is one query,
     * shared by concurrent requests with the same key.
     */
    async authenticate(key: string): Promise<Caller | undefined> {
      if (!parseApiKey(key)) return undefined;
      const hash = hashApiKey(key);
      const cached = cache.get(hash);
      let caller: Caller | undefined;
      if (cached && cached.until > Date.now()) {
        caller = cached.caller;
      } else {
        let pending = lookups.get(hash);
        if (!pending) {
          pending = lookup(hash).finally(() => lookups.delete(hash));
          lookups.set(hash, pending);
        }
        caller = await pending;
      }
      if (caller) recordUse(caller.keyId);
      return caller;
    },
  };
}

export type ApiKeyUseCases = ReturnType<typeof apiKeyUseCases>;
