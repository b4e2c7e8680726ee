import { randomBytes } from "node:crypto";
import { enqueue, type OutboxRelay } from "@cardhold/bus";
import {
  createWebhookSchema,
  rollSecretSchema,
  TOPICS,
  updateWebhookSchema,
  type Mode,
  type WebhookChangedMessage,
  type WebhookRecord,
} from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { AppError, newId, notFound, validate } from "@cardhold/platform";
import { checkDefaultUpdate, nextStatus, type WebhookAction } from "./domain/webhook-state";
import { webhookUrlProblem } from "./domain/webhook-url";
import {
  deleteWebhookRow,
  findWebhook,
  insertWebhook,
  saveWebhook,
  SCHEMA,
  toWebhookConfig,
  toWebhookRecord,
  type Scope,
  type WebhookRow,
} from "./store/webhooks.store";

export const newSigningKey = () => randomBytes(32).toString("hex");

/** webhooks.v1: the current configuration (with the signing key, which the dispatcher signs with). */
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
  /** Let live-mode webhooks target private, loopback and link-local addresses. */
  allowPrivateTargets: boolean;
}

export function webhookUseCases(db: Db, relay: Pick<OutboxRelay, "wake">, opts: WebhookOptions) {
  const checkUrl = (url: string, scope: Scope) => {
    const problem = webhookUrlProblem(url, scope.mode as Mode, opts.allowPrivateTargets);
    if (problem) throw new AppError(400, "invalid-request", `Invalid webhook: url ${problem}`, [{ path: "url", message: problem }]);
  };

  /** Runs a change of one webhook in a transaction with its webhooks.v1 message. */
  const change = async (scope: Scope, id: string, apply: (row: WebhookRow) => WebhookRow): Promise<WebhookRow> => {
    const row = await db.tx(async (tx) => {
      const current = await findWebhook(tx, scope, id, true);
      if (!current) throw notFound("Webhook", id);
      const saved = await saveWebhook(tx, apply(current));
      await announce(tx, saved);
      return saved;
    });
    relay.wake();
    return row;
  };

  const setStatus = (scope: Scope, id: string, action: WebhookAction) =>
    change(scope, id, (row) => ({ ...row, status: nextStatus(row.status, action, row.is_default) }));

  return {
    async create(scope: Scope, body: unknown): Promise<WebhookRecord> {
      const input = validate(createWebhookSchema, body, "webhook");
      checkUrl(input.url, scope);
      const row = await db.tx(async (tx) => {
        const inserted = await insertWebhook(tx, scope, { ...input, id: newId("webhook"), signingKey: input.signingKey ?? newSigningKey() });
        await announce(tx, inserted);
        return inserted;
      });
      relay.wake();
      return toWebhookRecord(row);
    },

    async get(scope: Scope, id: string): Promise<WebhookRecord> {
      const row = await findWebhook(db, scope, id);
      if (!row) throw notFound("Webhook", id);
      return toWebhookRecord(row);
    },

    async update(scope: Scope, id: string, body: unknown): Promise<WebhookRecord> {
      const input = validate(updateWebhookSchema, body, "webhook");
      if (input.url !== undefined) checkUrl(input.url, scope);
      const row = await change(scope, id, (current) => {
        checkDefaultUpdate(current.is_default, input);
        return {
          ...current,
          name: input.name ?? current.name,
          description: input.description ?? current.description,
          url: input.url ?? current.url,
          events: input.events ?? current.events,
          api_version: input.apiVersion ?? current.api_version,
          timeout_default: input.timeoutDefault ?? current.timeout_default,
          metadata: input.metadata ?? current.metadata,
        };
      });
      return toWebhookRecord(row);
    },

    enable: async (scope: Scope, id: string) => toWebhookRecord(await setStatus(scope, id, "enable")),
    disable: async (scope: Scope, id: string) => toWebhookRecord(await setStatus(scope, id, "disable")),

    async remove(scope: Scope, id: string): Promise<WebhookRecord> {
      const row = await db.tx(async (tx) => {
        const current = await findWebhook(tx, scope, id, true);
        if (!current) throw notFound("Webhook", id);
        if (current.is_default) throw new AppError(422, "invalid-state", "the default webhook cannot be deleted");
        await deleteWebhookRow(tx, id);
        await enqueue(tx, SCHEMA, [{ topic: TOPICS.webhooks, key: id, value: null }]);
        return current;
      });
      relay.wake();
      return toWebhookRecord(row);
    },

    async secret(scope: Scope, id: string): Promise<{ signingKey: string }> {
      const row = await findWebhook(db, scope, id);
      if (!row) throw notFound("Webhook", id);
      return { signingKey: row.signing_key };
    },

    async rollSecret(scope: Scope, id: string, body: unknown): Promise<{ signingKey: string }> {
      const input = validate(rollSecretSchema, body ?? {}, "secret roll");
      const signingKey = input.signingKey ?? newSigningKey();
      await change(scope, id, (row) => ({ ...row, signing_key: signingKey }));
      return { signingKey };
    },
  };
}

export type WebhookUseCases = ReturnType<typeof webhookUseCases>;
