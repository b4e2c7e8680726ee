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
  /** A payout (a bank transfer) reached the beneficiary, or failed and was refunded; data is the payment record. */
  "payment.payout.completed",
  "payment.payout.failed",
  /** A payment request (data is its record): paid in full, or a pay-in to its account was sent back to the payer. */
  "payment-request.completed",
  "payment-request.payment-refunded",
  /** A delayed request (202 request-accepted) got its answer, or failed; data is the request record. */
  "request.completed",
  /** POST /webhooks/:id/test: sent to that webhook alone, whatever it subscribes to (naming it in events adds nothing). */
  "webhook.test",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
