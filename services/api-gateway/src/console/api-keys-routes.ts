/**
 * The business's own secret keys in the caller's mode (GET, POST /api-keys, DELETE /api-keys/{id}): what the
 * operator's admin API does for any business, here for the caller's, with a full-access key (or its console session).
 */
import type { Express, Request } from "express";
import { z } from "zod";
import type { Db } from "@cardhold/db";
import {
  answerHoldsSecret,
  forbidden,
  idempotentWrites,
  listResource,
  notFound,
  priorIdempotentEffect,
  recordIdempotentEffect,
  REPLAYED_HEADER,
  validate,
} from "@cardhold/platform";
import { apiKeyView, type ApiKeyView, type Caller } from "../api-keys";
import type { BusinessUseCases } from "../businesses";
import { PERMISSIONS } from "../domain/permissions";
import { findKeyInMode, type ApiKeyRecordRow } from "../store/api-keys.store";
import { SCHEMA } from "../store/businesses.store";
import { apiKeyListResource, keyExistsInMode } from "./api-keys-list.store";

/** Strict: a misspelt field must not quietly change the key that is made. */
export const createRestrictedKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  permissions: z
    .array(z.enum(PERMISSIONS))
    .min(1, "must list at least one permission")
    .refine((list) => new Set(list).size === list.length, "must not repeat a permission"),
  delayedRequests: z
    .boolean()
    .describe(
      "A write that takes longer than the gateway's threshold answers 202 request-accepted (GET /requests/{id})",
    )
    .optional(),
});

/** The key's visible start, beside its last four characters (`sk.test.…1a2b`). */
const withPrefix = (view: ApiKeyView) => ({ ...view, prefix: `sk.${view.mode}.` });

/** Only a full-access key manages keys: a restricted one could otherwise make itself a wider key. */
function fullAccessCaller(req: Request): Caller {
  const caller = req.caller!;
  if (caller.permissions !== null) throw forbidden("Only a full-access key manages API keys: this key is restricted");
  return caller;
}

/** Idempotency-Key on the gateway's own write, scoped by the caller (no service behind sets the internal headers). */
const keyedWrites = (db: Db) =>
  idempotentWrites({
    db,
    schema: SCHEMA,
    scopeOf: (req) => ({ businessId: req.caller!.businessId, mode: req.caller!.mode, requestId: req.requestId }),
  });

export function apiKeysRoutes(app: Express, db: Db, businesses: BusinessUseCases): void {
  app.get("/api-keys", async (req, res) => {
    const caller = fullAccessCaller(req);
    res.json(
      await listResource<ApiKeyRecordRow>(req, {
        db,
        spec: apiKeyListResource,
        scope: { businessId: caller.businessId, mode: caller.mode },
        toRecord: (row) => withPrefix(apiKeyView(row)),
      }),
    );
  });

  /**
   * The secret is in this answer only (the request log redacts it). With an Idempotency-Key the key made is recorded
   * with it, never the secret: a retry answers that key again, its secret null (shown once), marked replayed.
   */
  app.post("/api-keys", keyedWrites(db), async (req, res) => {
    const caller = fullAccessCaller(req);
    const input = validate(createRestrictedKeySchema, req.body);
    const made = priorIdempotentEffect<{ keyId: string }>();
    const earlier = made && (await findKeyInMode(db, caller, made.keyId));
    if (earlier) {
      res.setHeader(REPLAYED_HEADER, "true");
      return void res.status(201).json({ code: "success", data: { ...withPrefix(apiKeyView(earlier)), secret: null } });
    }
    answerHoldsSecret(res);
    const { key, ...view } = await db.tx(async (tx) => {
      const issued = await businesses.issueKey(tx, caller.businessId, { ...input, mode: caller.mode });
      await recordIdempotentEffect(tx, { keyId: issued.id });
      return issued;
    });
    res.status(201).json({ code: "success", data: { ...withPrefix(view), secret: key } });
  });

  /** Revokes (idempotent): the key and its console sessions are refused at once here, within a second elsewhere. */
  app.delete("/api-keys/:id", async (req, res) => {
    const caller = fullAccessCaller(req);
    const keyId = req.params.id as string;
    if (!(await keyExistsInMode(db, caller, keyId))) throw notFound("API key", keyId);
    res.json({ code: "success", data: withPrefix(await businesses.revokeKey(caller.businessId, keyId)) });
  });
}
