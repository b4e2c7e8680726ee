import { enqueue } from "@cardhold/bus";
import type { Db, Queryable } from "@cardhold/db";
import {
  newId,
  notFound,
  priorIdempotentEffect,
  recordIdempotentEffect,
  validate,
  type RequestContext,
} from "@cardhold/platform";
import { billPaymentRequestSchema } from "@cardhold/contracts";
import { toPaymentRecord, type PaymentRecord, type PaymentRow } from "../domain/payment-record";
import { delayFor, isFinal, type RecheckSchedule } from "../domain/payment-state";
import { debitCommand } from "../messaging/outgoing";
import { findPayment, findPaymentByReference, insertPayment, SCHEMA } from "../store/payments.store";
import type { CheckBill } from "./check-bill";
import type { PaymentWaiters } from "./payment-waiters";

type Scope = Pick<RequestContext, "businessId" | "mode">;

export interface BillPaymentOptions {
  db: Db;
  checkBill: CheckBill;
  waiters: PaymentWaiters;
  wakeRelay: () => void;
  schedule: RecheckSchedule;
  /** How long POST /payments/bill waits for the outcome before answering 202. */
  paymentWaitMs: number;
}

const POLL_MS = 250;

/** Ties a new payment to an earlier one, in the transaction that records it (a requeue). */
export interface PaymentLink {
  /** Locks the earlier payment; the id of the payment made for it meanwhile by another request, if one was. */
  claim(tx: Queryable): Promise<string | undefined>;
  /** Records the tie once the new payment is in. */
  record(tx: Queryable, payment: PaymentRow): Promise<void>;
}

export interface PaymentOutcome {
  payment: PaymentRecord;
  final: boolean;
}

export function createBillPayments(opts: BillPaymentOptions) {
  const { db, checkBill, waiters } = opts;

  /** The payment once it is final, or as it stands when the wait is over. */
  const outcomeOf = async (scope: Scope, id: string): Promise<PaymentOutcome> => {
    const deadline = Date.now() + opts.paymentWaitMs;
    for (;;) {
      const row = (await findPayment(db, scope, id))!;
      const final = isFinal(row.status);
      if (final || Date.now() >= deadline) return { payment: toPaymentRecord(row), final };
      await waiters.wait(id, Math.min(POLL_MS, deadline - Date.now()));
    }
  };

  return {
    async validate(scope: Scope, body: unknown) {
      const request = validate(billPaymentRequestSchema, body);
      const { product, checked, accountName, customer, debitSource } = await checkBill(scope, request);
      return {
        product: product.id,
        productName: product.name,
        category: product.category,
        biller: product.biller,
        currency: product.currency,
        amount: checked.amount,
        fee: checked.fee,
        total: checked.total,
        inputs: checked.inputs,
        accountNumber: checked.accountNumber,
        accountName,
        customer: customer?.id ?? null,
        customerName: customer?.name ?? null,
        debitSource,
      };
    },

    /**
     * Records the payment with its debit command (one transaction) and waits for the outcome. `link` ties it to an
     * earlier payment in that transaction (a requeue).
     */
    async pay(scope: Scope, body: unknown, link?: PaymentLink): Promise<PaymentOutcome> {
      const request = validate(billPaymentRequestSchema, body);
      // This Idempotency-Key's payment was recorded by a request that died before answering: answer with it.
      const prior = priorIdempotentEffect<{ payment: string }>();
      if (prior) return outcomeOf(scope, prior.payment);
      if (request.reference) {
        const existing = await findPaymentByReference(db, scope, request.reference);
        if (existing) return outcomeOf(scope, existing.id);
      }
      const { product, checked, feeBreakdown, debitSource, accountName, customer } = await checkBill(scope, request);
      const now = new Date();
      let madeMeanwhile: string | undefined;
      const inserted = await db.tx(async (tx) => {
        madeMeanwhile = await link?.claim(tx);
        if (madeMeanwhile) return undefined;
        const row = await insertPayment(
          tx,
          scope,
          {
            id: newId("payment"),
            type: "bill",
            method: "bill",
            status: "debiting",
            amount: checked.amount,
            fee: checked.fee,
            fee_breakdown: feeBreakdown,
            currency: product.currency,
            product: product.id,
            method_data: {
              product: product.id,
              productName: product.name,
              category: product.category,
              biller: product.biller,
              inputs: checked.inputs,
              accountNumber: checked.accountNumber,
              accountName,
              billerReference: null,
              output: null,
            },
            funding_source: { type: "account", account: debitSource },
            account: null,
            customer: customer?.id ?? null,
            reference: request.reference ?? null,
            failure_reason: null,
            events: [],
            metadata: request.metadata ?? {},
            created_at: now,
            updated_at: now,
          },
          delayFor(0, opts.schedule.ledgerMs),
        );
        if (row) {
          await enqueue(tx, SCHEMA, [debitCommand(row)]);
          await recordIdempotentEffect(tx, { payment: row.id });
          await link?.record(tx, row);
        }
        return row;
      });
      if (inserted) {
        opts.wakeRelay();
        return outcomeOf(scope, inserted.id);
      }
      if (madeMeanwhile) return outcomeOf(scope, madeMeanwhile);
      // Another request with this reference won the race: answer with its payment.
      const first = await findPaymentByReference(db, scope, request.reference!);
      return outcomeOf(scope, first!.id);
    },

    /** The payment once it is final, or as it stands when the wait is over. */
    outcome: outcomeOf,

    async get(scope: Scope, id: string): Promise<PaymentRecord> {
      const row = await findPayment(db, scope, id);
      if (!row) throw notFound("Payment", id);
      return toPaymentRecord(row);
    },
  };
}

export type BillPayments = ReturnType<typeof createBillPayments>;
