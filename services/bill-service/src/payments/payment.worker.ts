import type { Logger } from "pino";
import { createPollingWorker, type PollingWorker } from "@cardhold/bus";
import type { Db } from "@cardhold/db";
import { withDeadline, type Biller, type BillerOrder } from "../billers/biller";
import { findProduct } from "../domain/catalog";
import { stateOf, type BillPaymentRow, type PaymentRow, type PayoutRow } from "../domain/payment-record";
import { dueAction, type BillerAnswer } from "../domain/payment-state";
import { claimDuePayments } from "../store/payments.store";
import type { PaymentProgress } from "./payment-progress";

const BATCH = 10;

export interface PaymentWorkerOptions {
  db: Db;
  logger: Logger;
  biller: Biller;
  progress: PaymentProgress;
  /** The bank rail's calls for a payout (src/payouts/rail-calls.ts). */
  payoutCalls: (row: PayoutRow) => ProviderCalls;
  /** Longest wait for one call to the biller or the bank rail. */
  billerTimeoutMs: number;
  idleMs: number;
}

/** A payment's two calls to whoever pays it out (the biller, the bank rail), answered as the payment state reads them. */
export interface ProviderCalls {
  /** Places the order; idempotent by the payment id. */
  pay(signal: AbortSignal): Promise<BillerAnswer | { status: "not-found" }>;
  /** Where the order stands; `not-found` when the provider never received it. */
  query(signal: AbortSignal): Promise<BillerAnswer | { status: "not-found" }>;
}

function orderOf(row: BillPaymentRow): BillerOrder {
  const product = findProduct(row.product);
  // Product ids are never removed from the catalog; a missing one is a programming error.
  if (!product) throw new Error(`payment ${row.id}: product ${row.product} is not in the catalog`);
  const { accountNumber, inputs } = row.method_data;
  return { reference: row.id, product, accountNumber, amount: row.amount, inputs };
}

/**
 * Moves payments whose check time has come: calls the biller (the bank rail for a payout) for debited payments (pay,
 * or query when the outcome is pending or unknown) and resends ledger commands that got no answer. Nothing is done
 * twice: the biller and the rail are idempotent by payment id, the ledger by command id, and a stale answer is
 * dropped by the version check.
 */
export function createPaymentWorker(opts: PaymentWorkerOptions): PollingWorker {
  const { db, logger, biller, progress, billerTimeoutMs } = opts;
  // Long enough for a pay that times out followed by a pay after a `not-found` query.
  const leaseMs = 3 * billerTimeoutMs + 5_000;

  const ask = async (
    call: (signal: AbortSignal) => Promise<BillerAnswer | { status: "not-found" }>,
    paymentId: string,
  ) => {
    try {
      return await withDeadline(billerTimeoutMs, call);
    } catch (err) {
      logger.warn({ err, paymentId }, "biller call failed or timed out; the payment will be checked again");
      return { status: "unknown" } as const;
    }
  };

  const billerCalls = (row: BillPaymentRow): ProviderCalls => ({
    pay: (signal) => biller.pay(orderOf(row), signal),
    query: (signal) => biller.query(row.id, signal),
  });

  const providerAnswer = async (row: PaymentRow, first: "pay" | "query"): Promise<BillerAnswer> => {
    const calls = row.type === "pay-out" ? opts.payoutCalls(row) : billerCalls(row);
    if (first === "query") {
      const found = await ask(calls.query, row.id);
      if (found.status !== "not-found") return found;
    }
    const paid = await ask(calls.pay, row.id);
    return paid.status === "not-found" ? { status: "unknown" } : paid;
  };

  const handle = async (row: PaymentRow) => {
    const action = dueAction(stateOf(row));
    if (action === "none") return;
    if (action === "resend-debit" || action === "resend-refund") {
      logger.info({ paymentId: row.id, action }, "no ledger result yet; resending the command");
      await progress.apply(row, { type: "check-due" });
      return;
    }
    const answer = await providerAnswer(row, action);
    const applied = await progress.apply(row, { type: "biller-answer", answer });
    if (applied.kind === "stale")
      logger.info({ paymentId: row.id }, "payment moved while the biller was asked; answer dropped");
  };

  return createPollingWorker({
    name: "bill payment worker",
    logger,
    idleMs: opts.idleMs,
    step: async () => {
      const due = await claimDuePayments(db, BATCH, leaseMs);
      await Promise.all(
        due.map((row) =>
          handle(row).catch((err: unknown) =>
            logger.error({ err, paymentId: row.id }, "payment step failed; retried after its lease"),
          ),
        ),
      );
      return due.length === BATCH;
    },
  });
}
