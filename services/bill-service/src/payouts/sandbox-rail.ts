import { setTimeout as sleep } from "node:timers/promises";
import type { Queryable } from "@cardhold/db";
import { bookSandboxTransfer, findSandboxTransfer, type SandboxTransferRow } from "../store/sandbox-transfers.store";
import type { BankRail, TransferAnswer } from "./bank-rail";
import { SANDBOX_TRANSFER_FAILURE, sandboxSessionId, sandboxTransferBehaviour } from "./sandbox-rail-rules";

export interface SandboxRailOptions {
  /** How long `3333` / `4444` transfers stay pending. */
  pendingMs: number;
  /** How long a `2222` send takes before it answers (longer than the bill-service's provider timeout). */
  slowMs: number;
}

function answerOf(transfer: SandboxTransferRow, now: Date): TransferAnswer {
  if (transfer.resolves_at && now < transfer.resolves_at) return { status: "pending", sessionId: transfer.session_id };
  if (transfer.outcome === "failed")
    return {
      status: "failed",
      sessionId: transfer.session_id,
      reason: transfer.failure_reason ?? SANDBOX_TRANSFER_FAILURE,
    };
  return { status: "successful", sessionId: transfer.session_id };
}

/**
 * The sandbox bank rail: behaviour by test number (sandbox-rail-rules.ts), transfers kept in bills.sandbox_transfers
 * so that sending a payout again, before or after a restart, answers about the first transfer and never makes a second.
 */
export function createSandboxRail(db: Queryable, opts: SandboxRailOptions): BankRail {
  return {
    name: "sandbox",

    async send(order, signal) {
      const behaviour = sandboxTransferBehaviour(order.accountNumber);
      const fails = behaviour === "fail" || behaviour === "pending-then-fail";
      const pending = behaviour === "pending-then-succeed" || behaviour === "pending-then-fail";
      await bookSandboxTransfer(db, {
        reference: order.reference,
        bank_code: order.bank.nipCode,
        account_number: order.accountNumber,
        account_name: order.accountName,
        amount: order.amount,
        currency: order.currency,
        narration: order.narration,
        outcome: fails ? "failed" : "successful",
        failure_reason: fails ? SANDBOX_TRANSFER_FAILURE : null,
        session_id: sandboxSessionId(order.reference),
        pendingMs: pending ? opts.pendingMs : null,
      });
      // The transfer is booked before the slow answer: a later query finds it.
      if (behaviour === "slow") await sleep(opts.slowMs, undefined, { signal, ref: false });
      const found = await findSandboxTransfer(db, order.reference);
      return answerOf(found!.transfer, found!.now);
    },

    async query(reference) {
      const found = await findSandboxTransfer(db, reference);
      return found ? answerOf(found.transfer, found.now) : { status: "not-found" };
    },
  };
}
