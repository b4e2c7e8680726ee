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
    eventKind === "card.authorization.request" ||
    (eventKind === "card.authorization.update" && data.status === "pending");
  return isDecision
    ? { kind: "decision", timeoutMs: DECISION_TIMEOUT_MS }
    : { kind: "notification", timeoutMs: NOTIFICATION_TIMEOUT_MS };
}

/** Less time than this before a decision's deadline is not worth asking the receiver in: the answer would be late. */
export const MIN_DECISION_WINDOW_MS = 250;

/**
 * How long to wait for the receiver: the policy's timeout, but never past the decision's deadline; undefined when
 * too little is left to ask at all (the platform is behind: the engine's timeout default decides at once).
 */
export function sendTimeoutMs(policy: DeliveryPolicy["kind"], answerBy: Date | null, now: number): number | undefined {
  if (policy === "notification") return NOTIFICATION_TIMEOUT_MS;
  if (answerBy === null) return DECISION_TIMEOUT_MS;
  const left = answerBy.getTime() - now;
  return left < MIN_DECISION_WINDOW_MS ? undefined : Math.min(DECISION_TIMEOUT_MS, left);
}

/**
 * A decision sent at `sentAt` whose receiver timed out was waited on until its deadline (not only the policy's timeout):
 * the engine applies its timeout default then, the very decision an answer `timeout` would bring, so none is sent.
 */
export function waitedUntilDeadline(policy: DeliveryPolicy["kind"], answerBy: Date | null, sentAt: number): boolean {
  return policy === "decision" && answerBy !== null && answerBy.getTime() - sentAt <= DECISION_TIMEOUT_MS;
}

/** A notification counts as delivered only on HTTP 200 (Rule 6). */
export const isDelivered = (httpStatus: number | null | undefined) => httpStatus === 200;
