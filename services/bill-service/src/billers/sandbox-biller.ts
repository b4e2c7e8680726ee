import { setTimeout as sleep } from "node:timers/promises";
import type { Queryable } from "@cardhold/db";
import { findSandboxOrder, insertSandboxOrder, type SandboxOrderRow } from "../store/sandbox-orders.store";
import type { Biller, OrderAnswer } from "./biller";
import { sandboxAccountName, sandboxBehaviour, sandboxBillerReference, sandboxOutput } from "./sandbox-rules";

export interface SandboxBillerOptions {
  /** How long `3333` / `4444` orders stay pending. */
  pendingMs: number;
  /** How long a `2222` payment call takes before it answers (longer than the bill-service's biller timeout). */
  slowMs: number;
}

function answerOf(order: SandboxOrderRow, now: Date): OrderAnswer {
  if (order.resolves_at && now < order.resolves_at)
    return { status: "pending", billerReference: order.biller_reference };
  if (order.outcome === "failed") {
    return {
      status: "failed",
      billerReference: order.biller_reference,
      reason: order.failure_reason ?? "biller-declined",
    };
  }
  return { status: "successful", billerReference: order.biller_reference, output: order.output ?? {} };
}

/**
 * The sandbox biller: behaviour by test number (sandbox-rules.ts), orders kept in bills.sandbox_orders so that paying
 * a reference again, before or after a restart, answers about the first order and never makes a second one.
 */
export function createSandboxBiller(db: Queryable, opts: SandboxBillerOptions): Biller {
  return {
    async lookup(_product, accountNumber) {
      if (sandboxBehaviour(accountNumber) === "unknown-account") {
        return { found: false, message: "no account with this number at the biller" };
      }
      return { found: true, accountName: sandboxAccountName(accountNumber) };
    },

    async pay(order, signal) {
      const behaviour = sandboxBehaviour(order.accountNumber);
      const fails = behaviour === "decline" || behaviour === "pending-then-fail" || behaviour === "unknown-account";
      const pending = behaviour === "pending-then-succeed" || behaviour === "pending-then-fail";
      await insertSandboxOrder(db, {
        reference: order.reference,
        product: order.product.id,
        account_number: order.accountNumber,
        amount: order.amount,
        currency: order.product.currency,
        outcome: fails ? "failed" : "successful",
        failure_reason: fails ? "biller-declined" : null,
        output: fails ? null : sandboxOutput(order.product, order.reference, order.amount),
        biller_reference: sandboxBillerReference(order.reference),
        pendingMs: pending ? opts.pendingMs : null,
      });
      // The order is on the books before the slow answer: a later query finds it.
      if (behaviour === "slow") await sleep(opts.slowMs, undefined, { signal, ref: false });
      const found = await findSandboxOrder(db, order.reference);
      return answerOf(found!.order, found!.now);
    },

    async query(reference) {
      const found = await findSandboxOrder(db, reference);
      return found ? answerOf(found.order, found.now) : { status: "not-found" };
    },
  };
}
