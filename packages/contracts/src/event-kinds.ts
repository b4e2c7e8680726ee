/** Customer-facing event kinds a webhook can subscribe to. */
export const EVENT_KINDS = [
  "card.authorization.request",
  "card.authorization.closed",
  "card.authorization.update",
  "card.transaction.created",
  "payment.bill.completed",
  "payment.bill.failed",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
