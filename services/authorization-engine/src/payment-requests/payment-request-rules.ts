import type { PaymentRequestRefundReason, PaymentRequestStatus } from "@cardhold/contracts";

/** What a pay-in to a payment request's account does: it pays the request, or it goes back to its payer (and why). */
export type PayInOutcome = { kind: "complete" } | { kind: "refund"; reason: PaymentRequestRefundReason };

/**
 * A payment request is single-use and expects one exact amount: the first pay-in of exactly `amount` completes it;
 * any other amount, and every pay-in after it is paid, is sent back to the payer. A pending request stays pending
 * through wrong amounts, so the payer can send the right one.
 */
export function receivePayIn(
  request: { status: PaymentRequestStatus; amount: number },
  payIn: { amount: number },
): PayInOutcome {
  if (request.status !== "pending") return { kind: "refund", reason: "already-completed" };
  if (payIn.amount !== request.amount) return { kind: "refund", reason: "wrong-amount" };
  return { kind: "complete" };
}
