/**
 * `POST /payments/payouts`: a bank transfer, made as a bill payment is. The payout (a payment of type `pay-out`) and
 * its ledger debit command commit in one transaction (outbox); the ledger's result moves it on; the payment worker
 * sends it to the bank rail once debited, asks again while it is pending or unanswered, and refunds it when the rail
 * fails it. The rail is idempotent by the payout id, so a crash anywhere neither pays twice nor loses the money.
 */
import { enqueue } from "@cardhold/bus";
import { payoutRequestSchema, type PayoutRequest } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import {
  conflict,
  newId,
  priorIdempotentEffect,
  recordIdempotentEffect,
  validate,
  type RequestContext,
} from "@cardhold/platform";
import type { PaymentRow } from "../domain/payment-record";
import { delayFor, type RecheckSchedule } from "../domain/payment-state";
import { debitCommand } from "../messaging/outgoing";
import type { BillPayments, PaymentOutcome } from "../payments/bill-payments";
import { findPaymentByReference, insertPayment, SCHEMA, type NewPayment } from "../store/payments.store";
import type { CheckedPayout, CheckPayout } from "./check-payout";

type Scope = Pick<RequestContext, "businessId" | "mode">;

export interface PayoutOptions {
  db: Db;
  checkPayout: CheckPayout;
  /** The payment once final, or as it stands when the wait is over (shared with bill payments). */
  outcome: BillPayments["outcome"];
  wakeRelay: () => void;
  schedule: RecheckSchedule;
}

function newPayout(id: string, request: PayoutRequest, checked: CheckedPayout, now: Date): NewPayment {
  const { options } = request;
  return {
    id,
    type: "pay-out",
    method: "bank-transfer",
    status: "debiting",
    amount: request.amount,
    fee: checked.fee,
    fee_breakdown: checked.feeBreakdown,
    currency: request.currency,
    product: null,
    method_data: {
      bankTransfer: {
        accountNumber: checked.accountNumber,
        bankCode: checked.bank.nipCode,
        bankName: checked.bank.name,
        accountName: checked.accountName,
        sourceAccountName: checked.customer?.name ?? null,
        narration: options.narration ?? request.reference ?? id,
        note: options.note ?? null,
      },
      billerReference: null,
      output: null,
    },
    funding_source: { type: "account", account: checked.debitSource },
    account: null,
    customer: checked.customer?.id ?? null,
    reference: request.reference ?? null,
    failure_reason: null,
    events: [],
    metadata: request.metadata ?? {},
    created_at: now,
    updated_at: now,
  };
}

export function createPayouts(opts: PayoutOptions) {
  const { db } = opts;

  /** The payout a reference names; a bill payment's reference cannot name a payout too. */
  const answerWith = (scope: Scope, existing: PaymentRow): Promise<PaymentOutcome> => {
    if (existing.type !== "pay-out")
      throw conflict(`Reference ${existing.reference} names the bill payment ${existing.id}, not a payout`);
    return opts.outcome(scope, existing.id);
  };

  return {
    /** Records the payout with its debit command (one transaction) and waits for the outcome. */
    async create(scope: Scope, body: unknown): Promise<PaymentOutcome> {
      const request = validate(payoutRequestSchema, body);
      // This Idempotency-Key's payout was recorded by a request that died before answering: answer with it.
      const prior = priorIdempotentEffect<{ payment: string }>();
      if (prior) return opts.outcome(scope, prior.payment);
      if (request.reference) {
        const existing = await findPaymentByReference(db, scope, request.reference);
        if (existing) return answerWith(scope, existing);
      }
      const checked = await opts.checkPayout(scope, request);
      const payout = newPayout(newId("payment"), request, checked, new Date());
      const inserted = await db.tx(async (tx) => {
        const row = await insertPayment(tx, scope, payout, delayFor(0, opts.schedule.ledgerMs));
        if (row) {
          await enqueue(tx, SCHEMA, [debitCommand(row)]);
          await recordIdempotentEffect(tx, { payment: row.id });
        }
        return row;
      });
      if (inserted) {
        opts.wakeRelay();
        return opts.outcome(scope, inserted.id);
      }
      // Another request with this reference won the race: answer with its payout.
      const first = await findPaymentByReference(db, scope, request.reference!);
      return answerWith(scope, first!);
    },
  };
}

export type Payouts = ReturnType<typeof createPayouts>;
