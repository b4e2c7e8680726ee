/**
 * How an event is delivered (interface Rules 5 and 6): a decision asks the receiver for an answer now — sent once,
 * 4 seconds to answer, answer published on decisions.v1; everything else is a notification, sent again until the
 * receiver answers HTTP 200.
 */
export type DeliveryPolicy = { kind: "decision"; timeoutMs: number } | { kind: "notification"; timeoutMs: number };

export const DECISION_TIMEOUT_MS = 4_000;
export const NOTIFICATION_TIMEOUT_MS = 10_000;

export function deliveryPolicy(eventKind: string, data: Record<string, unknown>): DeliveryPolicy {
  const isDecision =
    eventKind === "card.authorization.request" || (eventKind === "card.authorization.update" && data.status === "pending");
  return isDecision
    ? { kind: "decision", timeoutMs: DECISION_TIMEOUT_MS }
    : { kind: "notification", timeoutMs: NOTIFICATION_TIMEOUT_MS };
}

/** A notification counts as delivered only on HTTP 200 (Rule 6). */
export const isDelivered = (httpStatus: number | null | undefined) => httpStatus === 200;
