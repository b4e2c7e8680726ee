import { z } from "zod";
import { createWebhookSchema, rollSecretSchema, updateWebhookSchema } from "@cardhold/contracts";
import { webhookUrlProblem, type TargetMode } from "./webhook-url";

export interface UrlPolicy {
  mode: TargetMode;
  /** Let live-mode webhooks target private, loopback and link-local addresses. */
  allowPrivateTargets: boolean;
}

/** The url field with the target rules of the caller's mode, so its problem is listed with every other field's. */
function urlField(policy: UrlPolicy) {
  return createWebhookSchema.shape.url.superRefine((url, ctx) => {
    const problem = webhookUrlProblem(url, policy.mode, policy.allowPrivateTargets);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

/** POST /webhooks: the contract's body with the URL rules of the mode. */
export const createRequestSchema = (policy: UrlPolicy) => createWebhookSchema.extend({ url: urlField(policy) });
export type CreateRequest = z.output<ReturnType<typeof createRequestSchema>>;

/** PUT /webhooks/:id: any field but the signing key; the same rules. */
export const updateRequestSchema = (policy: UrlPolicy) =>
  updateWebhookSchema.extend({ url: urlField(policy).optional() });
export type UpdateRequest = z.output<ReturnType<typeof updateRequestSchema>>;

/** POST /webhooks/:id/secret/roll: an optional new key (16–256 characters). */
export const rollRequestSchema = rollSecretSchema.strict();

/** POST /webhooks/:id/enable and /disable take an empty object. */
export const emptyRequestSchema = z.object({}).strict();
