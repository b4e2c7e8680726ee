import { enqueue } from "@cardhold/bus";
import type { SimulatePayIn } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import { eventFor } from "../authorizations/events";
import { closeAccount, recordPayIn, SCHEMA, systemAccount } from "../store/accounts.store";
import { openLedger } from "../store/ledger.store";
import {
  completePaymentRequest,
  countRefundedPayment,
  findPaymentRequest,
  type PaymentRequestRow,
} from "../store/payment-requests.store";
import { toPaymentRequestRecord, type RefundedPayIn } from "./payment-request-records";
import { receivePayIn } from "./payment-request-rules";

/**
 * A pay-in to a payment request's account, inside the pay-in's transaction (the request locked, so two pay-ins of
 * the exact amount cannot both complete it): the exact amount completes it, anything else goes back to the payer
 * (payment-request-rules.ts). Its event goes through the outbox in the same transaction. Answers the id of the
 * account the pay-in's answer shows: where the money landed, or the request's virtual account when it went back.
 */
export async function payInToPaymentRequest(
  tx: Queryable,
  scope: Scope,
  payIn: SimulatePayIn,
  paymentRequestId: string,
): Promise<string> {
  const request = (await findPaymentRequest(tx, scope, paymentRequestId, true))!;
  const outcome = receivePayIn(request, payIn);
  if (outcome.kind === "complete") return complete(tx, scope, request, payIn);
  const refund: RefundedPayIn = {
    amount: payIn.amount,
    reason: outcome.reason,
    ...(payIn.reference && { reference: payIn.reference }),
    refundedAt: new Date().toISOString(),
  };
  return sendBack(tx, scope, request, payIn, refund);
}

/** The money lands in the request's account; the request is paid and its virtual account closes. */
async function complete(tx: Queryable, scope: Scope, request: PaymentRequestRow, payIn: SimulatePayIn) {
  const external = await systemAccount(tx, scope, "external", request.currency);
  const ledger = await openLedger(tx, scope, { funded: [request.account_id], system: [external] });
  const movementId = await ledger.move({
    kind: "pay-in",
    reference: payIn.reference ?? payIn.accountNumber,
    description: `payment request ${request.id}: ${payIn.method} to ${payIn.accountNumber}`,
    from: external,
    to: request.account_id,
    amount: payIn.amount,
  });
  if (payIn.reference) await recordPayIn(tx, scope, payIn.reference, movementId);
  const paid = await completePaymentRequest(tx, scope, request.id, {
    paidAt: new Date(),
    reference: payIn.reference ?? null,
    movementId,
  });
  await closeAccount(tx, scope, request.virtual_account_id);
  const record = toPaymentRequestRecord(paid);
  await enqueue(tx, SCHEMA, [eventFor(scope, "payment-request.completed", record, paid.id).message]);
  return request.account_id;
}

/**
 * The pay-in is credited to the request's virtual account and moved straight back out to the payer's side (the
 * external account): two balanced movements, the virtual account at zero again, the money's landing account untouched.
 */
async function sendBack(
  tx: Queryable,
  scope: Scope,
  request: PaymentRequestRow,
  payIn: SimulatePayIn,
  refund: RefundedPayIn,
) {
  const external = await systemAccount(tx, scope, "external", request.currency);
  const virtual = request.virtual_account_id;
  const ledger = await openLedger(tx, scope, { funded: [virtual], system: [external] });
  const reference = payIn.reference ?? payIn.accountNumber;
  const received = await ledger.move({
    kind: "pay-in",
    reference,
    description: `payment request ${request.id}: ${payIn.method} to ${payIn.accountNumber}`,
    from: external,
    to: virtual,
    amount: payIn.amount,
  });
  await ledger.move({
    kind: "pay-in-refund",
    reference,
    description: `payment request ${request.id}: sent back to the payer (${refund.reason})`,
    from: virtual,
    to: external,
    amount: payIn.amount,
  });
  if (payIn.reference) await recordPayIn(tx, scope, payIn.reference, received);
  const counted = await countRefundedPayment(tx, scope, request.id);
  const data = { ...toPaymentRequestRecord(counted), refund };
  await enqueue(tx, SCHEMA, [eventFor(scope, "payment-request.payment-refunded", data, counted.id).message]);
  return virtual;
}
