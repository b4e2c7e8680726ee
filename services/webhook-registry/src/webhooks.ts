import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { enqueue, type OutboxRelay } from "@cardhold/bus";
import {
  standardWebhooksSecret,
  TOPICS,
  type Mode,
  type WebhookChangedMessage,
  type WebhookRecord,
  type WebhookSecret,
} from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import {
  AppError,
  newId,
  notFound,
  recordIdempotentAnswer,
  sameSecret,
  stateConflict,
  validate,
  type SigningKeySealer,
} from "@cardhold/platform";
import {
  createRequestSchema,
  emptyRequestSchema,
  rollRequestSchema,
  updateRequestSchema,
  type UrlPolicy,
} from "./domain/webhook-request";
import { keysAt, rolledKeys, type SealedKeys } from "./domain/signing-key-roll";
import { nextStatus, type WebhookAction } from "./domain/webhook-state";
import { applyChange, changedFields, checkUpdateAllowed, type WebhookSettings } from "./domain/webhook-update";
import {
  deleteWebhook,
  findWebhook,
  insertWebhook,
  saveWebhook,
  SCHEMA,
  takeRepublishQueue,
  toWebhookConfig,
  toWebhookRecord,
  type Scope,
  type WebhookRow,
} from "./store/webhooks.store";

/** The body every /webhooks answer carries its data in. */
export const success = <T>(data: T) => ({ code: "success" as const, data });

/**
 * Records a write's answer in the transaction of its effect: an Idempotency-Key retry after this process died between
 * the commit and the answer is answered with it. The route answers the same status and body.
 */
const recordAnswer = (tx: Queryable, status: 200 | 201, row: WebhookRow) =>
  recordIdempotentAnswer(tx, status, success(toWebhookRecord(row)));

/** A generated signing key: 32 random bytes, hex. */
export const newSigningKey = () => randomBytes(32).toString("hex");

/** webhooks.v1: the current configuration (with the signing key, sealed, which the dispatcher signs with). */
export async function announce(tx: Queryable, row: WebhookRow): Promise<void> {
  const value: WebhookChangedMessage = {
    type: "webhook.changed",
    businessId: row.business_id,
    mode: row.mode as Mode,
    occurredAt: row.updated_at.toISOString(),
    data: toWebhookConfig(row),
  };
  await enqueue(tx, SCHEMA, [{ topic: TOPICS.webhooks, key: row.id, value }]);
}

export interface WebhookOptions {
  /** Let live-mode webhooks target private, loopback and link-local addresses (ALLOW_PRIVATE_WEBHOOK_TARGETS). */
  allowPrivateTargets: boolean;
  /** Seals and opens signing keys (SECRETS_KEY): the table and webhooks.v1 only ever hold them sealed. */
  keys: SigningKeySealer;
  /** The time a roll starts the replaced key's grace from (tests set it). */
  now?: () => Date;
}

const sealedKeysOf = (row: WebhookRow): SealedKeys => ({
  current: row.sealed_signing_key,
  previous:
    row.sealed_previous_signing_key && row.previous_signing_key_expires_at
      ? { sealed: row.sealed_previous_signing_key, expiresAt: row.previous_signing_key_expires_at }
      : null,
});

const withSealedKeys = (row: WebhookRow, keys: SealedKeys): WebhookRow => ({
  ...row,
  sealed_signing_key: keys.current,
  sealed_previous_signing_key: keys.previous?.sealed ?? null,
  previous_signing_key_expires_at: keys.previous?.expiresAt ?? null,
});

/** The secret answer: the signing key, and the same key as a Standard Webhooks secret. */
const secretAnswer = (signingKey: string): WebhookSecret => ({
  signingKey,
  standardWebhooksSecret: standardWebhooksSecret(signingKey),
});

const settingsOf = (row: WebhookRow): WebhookSettings => ({
  name: row.name,
  description: row.description,
  url: row.url,
  events: row.events,
  apiVersion: row.api_version,
  timeoutDefault: row.timeout_default,
  metadata: row.metadata,
  signatureHeaders: row.signature_headers,
  standIn: row.stand_in,
});

const withSettings = (row: WebhookRow, s: WebhookSettings): WebhookRow => ({
  ...row,
  name: s.name,
  description: s.description,
  url: s.url,
  events: s.events,
  api_version: s.apiVersion,
  timeout_default: s.timeoutDefault,
  metadata: s.metadata,
  signature_headers: s.signatureHeaders,
  stand_in: s.standIn,
});

/**
 * validate() with the URL's reason also in the message: every bad field is listed in `errors`, and the target rule
 * (which depends on the mode and the operator's setting) is the one a caller cannot guess from the field name.
 */
function validateWebhook<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  try {
    return validate(schema, body, "webhook");
  } catch (error) {
    const url = error instanceof AppError ? error.errors?.find((e) => e.path === "url") : undefined;
    if (!url || !(error instanceof AppError)) throw error;
    throw new AppError(error.statusCode, error.code, `${error.message} (url ${url.message})`, error.errors);
  }
}

/** What a change decides about the locked row: the row to save, or nothing when the change changes nothing. */
type Decide = (current: WebhookRow) => WebhookRow | undefined;

interface ChangeOptions {
  /** The answer holds a secret (a rolled key): it is not recorded, as answerHoldsSecret keeps it out of the key table. */
  answerHoldsSecret?: boolean;
}

export function webhookUseCases(db: Db, relay: Pick<OutboxRelay, "wake">, opts: WebhookOptions) {
  const now = opts.now ?? (() => new Date());
  const policy = (scope: Scope): UrlPolicy => ({
    mode: scope.mode as Mode,
    allowPrivateTargets: opts.allowPrivateTargets,
  });

  /** Every change commits with its webhooks.v1 message in one transaction, then wakes the relay. */
  const commit = async <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => {
    const result = await db.tx(work);
    relay.wake();
    return result;
  };

  /** Saves and announces a changed webhook (a replaced key past its grace is dropped on the way). */
  const save = async (tx: Queryable, scope: Scope, next: WebhookRow): Promise<WebhookRow> => {
    const saved = await saveWebhook(tx, scope, withSealedKeys(next, keysAt(sealedKeysOf(next), now())));
    if (!saved) throw notFound("Webhook", next.id);
    await announce(tx, saved);
    return saved;
  };

  /**
   * Locks one webhook of the scope, applies `decide`, saves and announces the result (no-op: no write) and records
   * the answer (200, the record) with it, unless that answer holds a secret.
   */
  const change = (scope: Scope, id: string, decide: Decide, how: ChangeOptions = {}): Promise<WebhookRow> =>
    commit(async (tx) => {
      const current = await findWebhook(tx, scope, id, true);
      if (!current) throw notFound("Webhook", id);
      const next = decide(current);
      const row = next ? await save(tx, scope, next) : current;
      if (!how.answerHoldsSecret) await recordAnswer(tx, 200, row);
      return row;
    });

  const setStatus = async (scope: Scope, id: string, action: WebhookAction, body: unknown): Promise<WebhookRecord> => {
    validate(emptyRequestSchema, body ?? {}, `${action} request`);
    const row = await change(scope, id, (current) => {
      const status = nextStatus(current.status, action, current.is_default);
      return status === current.status ? undefined : { ...current, status };
    });
    return toWebhookRecord(row);
  };

  return {
    async create(scope: Scope, body: unknown): Promise<WebhookRecord> {
      const input = validateWebhook(createRequestSchema(policy(scope)), body);
      const { signingKey = newSigningKey(), ...settings } = input;
      const id = newId("webhook");
      const row = await commit(async (tx) => {
        const inserted = await insertWebhook(tx, scope, {
          ...settings,
          id,
          sealedSigningKey: opts.keys.seal(id, signingKey),
        });
        await announce(tx, inserted);
        await recordAnswer(tx, 201, inserted);
        return inserted;
      });
      return toWebhookRecord(row);
    },

    async get(scope: Scope, id: string): Promise<WebhookRecord> {
      const row = await findWebhook(db, scope, id);
      if (!row) throw notFound("Webhook", id);
      return toWebhookRecord(row);
    },

    /** A partial update: fields left out keep their value; the signing key changes only through a roll. */
    async update(scope: Scope, id: string, body: unknown): Promise<WebhookRecord> {
      const { signingKey: _never, ...input } = validateWebhook(updateRequestSchema(policy(scope)), body);
      const row = await change(scope, id, (current) => {
        const settings = settingsOf(current);
        checkUpdateAllowed(current.is_default, settings, input);
        if (changedFields(settings, input).length === 0) return undefined;
        return withSettings(current, applyChange(settings, input));
      });
      return toWebhookRecord(row);
    },

    enable: (scope: Scope, id: string, body: unknown) => setStatus(scope, id, "enable", body),
    disable: (scope: Scope, id: string, body: unknown) => setStatus(scope, id, "disable", body),

    /** Deletes a webhook and publishes a tombstone (value null) for its id on webhooks.v1. */
    async remove(scope: Scope, id: string): Promise<WebhookRecord> {
      const row = await commit(async (tx) => {
        const current = await findWebhook(tx, scope, id, true);
        if (!current) throw notFound("Webhook", id);
        if (current.is_default) throw stateConflict("The default webhook cannot be deleted; change its url instead");
        if (!(await deleteWebhook(tx, scope, id))) throw notFound("Webhook", id);
        await enqueue(tx, SCHEMA, [{ topic: TOPICS.webhooks, key: id, value: null }]);
        return current;
      });
      return toWebhookRecord(row);
    },

    async secret(scope: Scope, id: string): Promise<WebhookSecret> {
      const row = await findWebhook(db, scope, id);
      if (!row) throw notFound("Webhook", id);
      return secretAnswer(opts.keys.open(row.id, row.sealed_signing_key));
    },

    /**
     * Replaces the signing key with the given one or a generated one; the new key is returned this once. The replaced
     * key keeps signing Standard Webhooks signatures for 24 h (see signing-key-roll).
     */
    async rollSecret(scope: Scope, id: string, body: unknown): Promise<WebhookSecret> {
      const input = validate(rollRequestSchema, body ?? {}, "secret roll");
      const signingKey = input.signingKey ?? newSigningKey();
      await change(
        scope,
        id,
        (row) =>
          sameSecret(opts.keys.open(row.id, row.sealed_signing_key), signingKey)
            ? undefined
            : withSealedKeys(row, rolledKeys(sealedKeysOf(row), opts.keys.seal(row.id, signingKey), now())),
        { answerHoldsSecret: true },
      );
      return secretAnswer(signingKey);
    },

    /** Publishes on webhooks.v1 what a migration changed (e.g. a regenerated key), once; the number published. */
    async republishQueued(): Promise<number> {
      return commit(async (tx) => {
        const rows = await takeRepublishQueue(tx);
        for (const row of rows) await announce(tx, row);
        return rows.length;
      });
    },
  };
}

export type WebhookUseCases = ReturnType<typeof webhookUseCases>;
