import { z } from "zod";
import { customerRecordSchema } from "./customer";

export const modeSchema = z.enum(["test", "live"]);
export type Mode = z.infer<typeof modeSchema>;

/** The value of every bus message: a typed payload plus the business and mode it belongs to. */
export function busEnvelope<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.object({
    type: z.literal(type),
    businessId: z.string(),
    mode: modeSchema,
    occurredAt: z.string(),
    data,
  });
}

export const defaultWebhookSchema = z.object({
  url: z.string(),
  /**
   * The test-mode default webhook's key, sealed under SECRETS_KEY and bound to the business id (the platform's
   * announcedSigningKeySealer); the registry generates the live default's (one key per mode).
   */
  sealedSigningKey: z.string().optional(),
  /** The same in plain: only in messages from before keys were sealed. */
  signingKey: z.string().optional(),
});

export const businessSchema = z.object({
  id: z.string(),
  name: z.string(),
  defaultWebhook: defaultWebhookSchema,
  createdAt: z.string(),
});
export type Business = z.infer<typeof businessSchema>;

/** businesses.v1 — the business exists in both modes, so `mode` is "live" and consumers apply it to both. */
export const businessCreatedMessage = busEnvelope("business.created", businessSchema);
export type BusinessCreatedMessage = z.infer<typeof businessCreatedMessage>;

/** customers.v1 — the full record after each change. */
export const customerChangedMessage = z.union([
  busEnvelope("customer.created", customerRecordSchema),
  busEnvelope("customer.updated", customerRecordSchema),
]);
export type CustomerChangedMessage = z.infer<typeof customerChangedMessage>;

// webhooks.v1 (webhookConfigSchema, webhookChangedMessage) is in webhook.ts: it carries the stand-in rules of cards.ts,
// which imports ledger.ts, which imports this file.

/** events.v1 (key = resource id) — a customer-facing event envelope to deliver. */
export const eventEnvelopeSchema = z.object({
  event: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.object({ sentAt: z.string(), event: z.string() }),
});
export const eventPublishedMessage = busEnvelope(
  "event.published",
  z.object({
    envelope: eventEnvelopeSchema,
    resourceId: z.string(),
    /** Deliver to this webhook only (a card program's own webhook) while it is enabled; otherwise routed by kind. */
    webhookId: z.string().optional(),
    /**
     * A decision event's deadline (ISO time): an answer after it is ignored, so the dispatcher does not send what it
     * can no longer deliver in time, and answers `platform-overloaded` instead.
     */
    answerBy: z.iso.datetime().optional(),
    /**
     * A decision event's way back: the internal address of the engine process that asked (and holds the request
     * waiting on the answer). The dispatcher posts the answer there (`POST /internal/decision-answers`) and publishes
     * it on decisions.v1 only when that fails. Absent: decisions.v1 only.
     */
    answerTo: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
  }),
);
export type EventPublishedMessage = z.infer<typeof eventPublishedMessage>;

/**
 * Where an engine's outbox relay posts events.v1 messages straight to a dispatcher (internal credential required): the
 * messages as the outbox holds them, in commit order; answered 200 once they are stored.
 */
export const EVENTS_INTAKE_PATH = "/internal/events";
export const MAX_EVENTS_POSTED = 1_000;
export const postedEventsBody = z
  .array(
    z.object({
      id: z.string().min(1).max(200),
      key: z.string().min(1).max(200),
      /** Checked with eventPublishedMessage by the intake, which keeps the value as written (see EventMessage). */
      value: z.record(z.string(), z.unknown()),
      headers: z.record(z.string(), z.string()).default({}),
    }),
  )
  .min(1)
  .max(MAX_EVENTS_POSTED);
export type PostedEvent = z.infer<typeof postedEventsBody>[number];

/** decisions.v1 (key = authorization id) — what the receiver answered to a decision event, or why nothing usable came. */
export const DECISION_ERRORS = [
  "timeout",
  "connection-error",
  "no-webhook",
  "dispatcher-restarted",
  "platform-overloaded",
] as const;
export const decisionAnsweredMessage = busEnvelope(
  "decision.answered",
  z.object({
    eventId: z.string(),
    resourceId: z.string(),
    webhookId: z.string().nullable(),
    httpStatus: z.number().int().nullable(),
    body: z.unknown(),
    latencyMs: z.number().int().nullable(),
    error: z.enum(DECISION_ERRORS).nullable(),
  }),
);
export type DecisionAnsweredMessage = z.infer<typeof decisionAnsweredMessage>;

/** Where a decision event's `answerTo` takes the decisions.v1 message, posted (internal credential required). */
export const DECISION_ANSWERS_PATH = "/internal/decision-answers";

/** A fee as fees.v1 carries it: the terms services other than the engine charge it by (the engine's fee record). */
export const publishedFeeSchema = z.object({
  id: z.string(),
  name: z.string(),
  structure: z.enum(["flat", "percentage"]),
  currency: z.string(),
  /** Flat: minor units. Percentage: 1.5 = 1.5 %. */
  value: z.number().min(0),
  /** The most a percentage fee charges, minor units; null: no limit. */
  cap: z.number().int().min(0).nullable(),
  /** The account the fee is paid into. */
  account: z.string(),
  createdAt: z.string(),
});
export type PublishedFee = z.infer<typeof publishedFeeSchema>;

/** fees.v1 (compacted, key = fee id) — a fee once made; fees never change, so this is its only message. */
export const feeCreatedMessage = busEnvelope("fee.created", publishedFeeSchema);
export type FeeCreatedMessage = z.infer<typeof feeCreatedMessage>;
