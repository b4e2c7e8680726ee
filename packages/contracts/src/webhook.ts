import { z } from "zod";
import { standInSchema } from "./cards";
import { metadataSchema } from "./customer";
import { EVENT_KINDS } from "./event-kinds";
import { busEnvelope } from "./messages";
import { signatureHeadersSchema } from "./signature-headers";

const apiVersion = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD")
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    "must be a real date",
  );

const eventKind = z.string().refine((k) => (EVENT_KINDS as readonly string[]).includes(k), {
  error: (issue) => `unknown event kind "${String(issue.input)}"; known kinds: ${EVENT_KINDS.join(", ")}`,
});

const fields = {
  name: z.string().trim().min(1, "must not be empty").max(100),
  events: z
    .array(eventKind)
    .min(1, "must name at least one event kind")
    .refine((list) => new Set(list).size === list.length, "must not repeat an event kind"),
  url: z.string().max(2048),
  apiVersion: apiVersion.optional(),
  description: z.string().max(500).optional(),
  metadata: metadataSchema.optional(),
  timeoutDefault: z.enum(["approve", "decline"]).optional(),
  signatureHeaders: signatureHeadersSchema
    .describe('Extra header names each delivery carries the Service-Signature value under, e.g. ["Acme-Signature"]')
    .optional(),
  standIn: standInSchema
    .nullable()
    .optional()
    .describe(
      "Stand-in rules (as a card program's authorization.standIn) for captures this webhook decides when it gives no " +
        "usable answer in time; a program's own rules win. null on PUT removes them",
    ),
};

export const createWebhookSchema = z.object({
  ...fields,
  signingKey: z.string().min(16, "must be at least 16 characters").max(256).optional(),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookSchema>;

/** PUT: every field but the signing key (that one changes only through /secret/roll). */
export const updateWebhookSchema = z
  .object({ ...fields, signingKey: z.never({ error: "is changed with POST /webhooks/:id/secret/roll" }).optional() })
  .partial();
export type UpdateWebhookRequest = z.infer<typeof updateWebhookSchema>;

export const rollSecretSchema = z.object({ signingKey: createWebhookSchema.shape.signingKey });

/**
 * The Standard Webhooks secret of a signing key: `whsec_` + base64 of the key's UTF-8 bytes (the bytes HMAC-SHA512 is
 * keyed with for Service-Signature), so one key signs both schemes and rolls for both. The registry answers it; the
 * dispatcher signs `webhook-signature` with those bytes.
 */
export function standardWebhooksSecret(signingKey: string): string {
  return `whsec_${Buffer.from(signingKey, "utf8").toString("base64")}`;
}

/** GET /webhooks/:id/secret and POST /webhooks/:id/secret/roll: the signing key in both schemes' forms. */
export const webhookSecretSchema = z.object({
  signingKey: z
    .string()
    .describe("Signs every event sent to the webhook (Service-Signature: hex HMAC-SHA512 of the raw body)"),
  standardWebhooksSecret: z
    .string()
    .describe(
      "The same key as a Standard Webhooks secret (whsec_ + base64 of its UTF-8 bytes): verifies webhook-signature",
    ),
});
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookRecordSchema = z.object({
  id: z.string(),
  object: z.literal("webhook"),
  name: z.string(),
  description: z.string().nullable(),
  url: z.string(),
  events: z.array(z.string()),
  apiVersion: z.string().nullable(),
  status: z.enum(["created", "enabled", "disabled"]),
  isDefault: z.boolean(),
  timeoutDefault: z.enum(["approve", "decline"]).nullable(),
  metadata: z.record(z.string(), z.unknown()),
  signatureHeaders: z
    .array(z.string())
    .describe("Extra header names each delivery carries the Service-Signature value under ([] when none)"),
  standIn: standInSchema.nullable().describe("The webhook's stand-in rules (null when none)"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookRecord = z.infer<typeof webhookRecordSchema>;

/** webhooks.v1: what the registry announces of each webhook (the dispatcher and the engine keep copies). */
export const webhookConfigSchema = z.object({
  id: z.string(),
  /** The webhook's name, for logs and the dispatcher's views (absent in messages from before it was added). */
  name: z.string().optional(),
  url: z.string(),
  events: z.array(z.string()),
  /**
   * The signing key sealed under SECRETS_KEY (`v1:…`, bound to the webhook id; the platform's signingKeySealer opens
   * it). Messages carry it sealed: they sit in outbox tables and on a compacted topic.
   */
  sealedSigningKey: z.string().optional(),
  /** The plain signing key, only in messages from before keys were sealed; consumers seal it on arrival. */
  signingKey: z.string().optional(),
  status: z.enum(["created", "enabled", "disabled"]),
  isDefault: z.boolean(),
  /** What the engine applies when a decision gets no usable answer in time (the card program's wins). */
  timeoutDefault: z.enum(["approve", "decline"]).nullable().optional(),
  /**
   * Extra header names each delivery carries the Service-Signature value under (checked by the registry; absent in
   * messages from before they were added: none).
   */
  signatureHeaders: z.array(z.string()).optional(),
  /**
   * The key the last roll replaced, sealed like sealedSigningKey, and when it stops signing (24 h after the roll).
   * Until then `webhook-signature` carries a signature under each key. Absent when there is none.
   */
  sealedPreviousSigningKey: z.string().optional(),
  previousSigningKeyExpiresAt: z.iso.datetime().optional(),
  /**
   * The webhook's stand-in rules, which the engine applies to a capture this webhook decides without a usable answer
   * when the card's program has none of its own. Absent in messages from before they were added; null: none.
   */
  standIn: standInSchema.nullable().optional(),
});
export type WebhookConfig = z.infer<typeof webhookConfigSchema>;

/** webhooks.v1 (compacted, key = webhook id) — the current configuration; a null value is a tombstone. */
export const webhookChangedMessage = busEnvelope("webhook.changed", webhookConfigSchema);
export type WebhookChangedMessage = z.infer<typeof webhookChangedMessage>;
