/** Where payouts are sent: a bank rail per mode. Test mode uses the sandbox rail; live mode needs a real one. */
import { AppError } from "@cardhold/platform";
import type { Bank } from "../domain/banks";

/** What the bill-service asks a bank rail to send. */
export interface BankTransferOrder {
  /** The payout id: the rail's idempotency key (sending the same reference twice is one transfer). */
  reference: string;
  bank: Bank;
  accountNumber: string;
  /** The beneficiary's name from the name enquiry, which the rail checks the credit against. */
  accountName: string;
  /** Minor units; the fee stays with the platform. */
  amount: number;
  currency: string;
  narration: string;
}

/** A rail's definite answer about a transfer; `sessionId` is its own id of the transfer (NIP's session id). */
export type TransferAnswer =
  | { status: "successful"; sessionId: string }
  | { status: "pending"; sessionId: string }
  | { status: "failed"; sessionId: string | null; reason: string };

/**
 * A bank rail adapter (NIBSS Instant Payment, an aggregator). Each call gets an AbortSignal that fires at the
 * bill-service's provider timeout; a call that throws or times out leaves the outcome unknown, and the transfer is
 * asked about again later with `query`, never sent blindly.
 */
export interface BankRail {
  readonly name: string;
  /** Sends the transfer; idempotent by `order.reference`: a second call answers about the first transfer. */
  send(order: BankTransferOrder, signal: AbortSignal): Promise<TransferAnswer>;
  /** Where a transfer stands; `not-found` when the rail never received it. */
  query(reference: string, signal: AbortSignal): Promise<TransferAnswer | { status: "not-found" }>;
}

export interface BankRails {
  test: BankRail;
  /** None: live payouts are refused (403 bank-rail-not-configured). */
  live: BankRail | undefined;
}

/**
 * The rail for the caller's mode. Live mode without a rail refuses rather than pretend to pay real accounts: a 403,
 * as the bank tools' account names do (a 5xx would invite retries that cannot succeed until an operator configures one).
 */
export function railFor(mode: string, rails: BankRails): BankRail {
  if (mode === "test") return rails.test;
  if (rails.live) return rails.live;
  throw new AppError(
    403,
    "bank-rail-not-configured",
    "Payouts cannot be sent in live mode: no live bank rail is configured (the bill-service's liveBankRail option). " +
      "Test keys use the sandbox rail.",
  );
}
