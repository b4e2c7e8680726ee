/**
 * What the receiver's answer to a decision event means (interface "Authorization response body"): a valid body
 * with HTTP 2xx is an approve or a decline; anything else — no answer in time, a connection error, an error status,
 * a body that is not an authorization response — is unusable, and the timeout default decides.
 */
import { z } from "zod";
import { MAX_JSON_DEPTH, valueDepth } from "@cardhold/platform";
import type { Answer } from "./authorization";

export const DECLINE_CODES = [
  "account-not-found",
  "account-inactive",
  "insufficient-funds",
  "invalid-transaction",
  "duplicate-transaction",
  "spending-control",
] as const;

export const authorizationResponseSchema = z.object({
  action: z.enum(["approve", "decline"]),
  /** A partial approval's amount (minor units); whether it fits the request is the state machine's (screenAnswer). */
  amount: z.number().int().min(1).optional(),
  code: z.enum(DECLINE_CODES).optional(),
  cardBalance: z.number().optional(),
  cardHolderName: z.string().optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((value) => valueDepth(value) <= MAX_JSON_DEPTH, `metadata nests deeper than ${MAX_JSON_DEPTH} levels`)
    .optional(),
});

export interface DecisionOutcome {
  httpStatus: number | null;
  body: unknown;
  /** timeout, connection-error, no-webhook, dispatcher-restarted — or null when an HTTP answer came. */
  error: string | null;
}

/** The statusReason recorded when the answer is unusable, by what went wrong. */
export const UNUSABLE_REASONS: Record<string, string> = {
  timeout: "timeout-error",
  "dispatcher-restarted": "timeout-error",
  "connection-error": "connection-error",
  "no-webhook": "no-webhook",
  "platform-overloaded": "platform-overloaded",
};

export function answerOf(outcome: DecisionOutcome): Answer {
  if (outcome.error) return { action: "unusable", reason: UNUSABLE_REASONS[outcome.error] ?? "timeout-error" };
  if (outcome.httpStatus === null || outcome.httpStatus < 200 || outcome.httpStatus > 299) {
    return { action: "unusable", reason: "webhook-error" };
  }
  const parsed = authorizationResponseSchema.safeParse(outcome.body);
  if (!parsed.success) return { action: "unusable", reason: "invalid-response" };
  const { action, amount, code, cardBalance, cardHolderName, metadata } = parsed.data;
  if (action === "decline") return { action, code, metadata };
  return { action, amount, code, cardBalance, cardHolderName, metadata };
}
