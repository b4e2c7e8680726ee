/** Customer-facing event kinds a webhook can subscribe to. */
export const EVENT_KINDS = [
  "card.authorization.request",
  "card.authorization.closed",
  "card.authorization.update",
  "card.transaction.created",
  /** A dispute of a card transaction: opened, its evidence changed, and its end (data is the dispute record). */
  "dispute.created",
  "dispute.updated",
  "dispute.won",
  "dispute.lost",
  "dispute.closed",
  "payment.bill.completed",
  "payment.bill.failed",
  /** A delayed request (202 request-accepted) got its answer, or failed; data is the request record. */
  "request.completed",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
