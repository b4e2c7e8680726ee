/**
 * `POST /payments/:id/requeue {}`: a new attempt at a failed bill payment. A failed payment moved no money for good
 * (the debit failed, or the biller declined and the debit was refunded), so the retry is a new payment with the same
 * product, inputs, customer, debit source and metadata, debited and paid afresh: its own `p.` id, no reference (the
 * failed payment keeps it), `methodData.requeuedFrom` naming the failed payment, whose `methodData.requeuedAs` names
 * the retry. A failed payment is requeued once: asking again answers with the same retry, never a second debit.
 */
import type { Queryable } from "@cardhold/db";
import { AppError, notFound, stateConflict, validate, type RequestContext } from "@cardhold/platform";
import type { BillPaymentRow, PaymentRow } from "../domain/payment-record";
import { addToMethodData, findPayment, lockPayment } from "../store/payments.store";
import type { BillPayments, PaymentLink, PaymentOutcome } from "./bill-payments";
import { noOptionsBody } from "./no-options-body";

type Scope = Pick<RequestContext, "businessId" | "mode">;

/**
 * Failures a retry with the same inputs meets again: the ledger found the named debit account unknown or in another
 * currency. Insufficient funds, an inactive account and a biller's decline may all be gone by the next attempt.
 */
const UNFIXABLE_BY_RETRY = ["account-not-found", "currency-mismatch"];

function checkRequeueable(payment: PaymentRow): asserts payment is BillPaymentRow {
  if (payment.type === "pay-out")
    throw new AppError(
      422,
      "payment-not-retryable",
      `Payment ${payment.id} is a payout: send POST /payments/payouts again, with a new reference`,
    );
  if (payment.status !== "failed")
    throw stateConflict(`Payment ${payment.id} is ${payment.status}: only a failed payment can be requeued`);
  const debitSource = payment.funding_source.account;
  if (debitSource && UNFIXABLE_BY_RETRY.includes(payment.failure_reason ?? ""))
    throw new AppError(
      422,
      "payment-not-retryable",
      `Payment ${payment.id} failed with ${payment.failure_reason} on ${debitSource}: the same inputs would fail again`,
    );
}

/** The failed payment's request, as POST /payments/bill takes it. */
const retryRequestOf = (payment: BillPaymentRow) => ({
  product: payment.product,
  inputs: payment.method_data.inputs,
  ...(payment.customer && { customer: payment.customer }),
  ...(payment.funding_source.account && { debitSource: payment.funding_source.account }),
  metadata: payment.metadata,
});

/** In the retry's transaction: the failed payment locked, still unrequeued, then each naming the other. */
const requeueLink = (scope: Scope, failedId: string): PaymentLink => ({
  async claim(tx: Queryable) {
    const failed = await lockPayment(tx, scope, failedId);
    return failed?.type === "bill" ? failed.method_data.requeuedAs : undefined;
  },
  async record(tx: Queryable, retry: PaymentRow) {
    const now = new Date();
    await addToMethodData(tx, scope, failedId, { requeuedAs: retry.id }, now);
    await addToMethodData(tx, scope, retry.id, { requeuedFrom: failedId }, now);
  },
});

export function createPaymentRequeue(db: Queryable, payments: BillPayments) {
  return async function requeue(scope: Scope, id: string, body: unknown): Promise<PaymentOutcome> {
    validate(noOptionsBody, body ?? {});
    const payment = await findPayment(db, scope, id);
    if (!payment) throw notFound("Payment", id);
    const retry = payment.type === "bill" ? payment.method_data.requeuedAs : undefined;
    if (retry) return payments.outcome(scope, retry);
    checkRequeueable(payment);
    return payments.pay(scope, retryRequestOf(payment), requeueLink(scope, payment.id));
  };
}
