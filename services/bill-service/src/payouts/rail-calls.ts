import type { BillerAnswer } from "../domain/payment-state";
import { findBank } from "../domain/banks";
import type { PayoutRow } from "../domain/payment-record";
import type { ProviderCalls } from "../payments/payment.worker";
import { railFor, type BankRails, type BankTransferOrder, type TransferAnswer } from "./bank-rail";

function orderOf(row: PayoutRow): BankTransferOrder {
  const transfer = row.method_data.bankTransfer;
  const bank = findBank(transfer.bankCode);
  // Bank codes are never removed from the list; a missing one is a programming error.
  if (!bank) throw new Error(`payout ${row.id}: bank ${transfer.bankCode} is not in the bank list`);
  return {
    reference: row.id,
    bank,
    accountNumber: transfer.accountNumber,
    accountName: transfer.accountName,
    amount: row.amount,
    currency: row.currency,
    narration: transfer.narration,
  };
}

/** A rail's answer as the payment state reads a provider's: its session id stands where a biller's reference does. */
function asProviderAnswer(answer: TransferAnswer): BillerAnswer {
  switch (answer.status) {
    case "successful":
      return { status: "successful", billerReference: answer.sessionId, output: {} };
    case "pending":
      return { status: "pending", billerReference: answer.sessionId };
    case "failed":
      return { status: "failed", billerReference: answer.sessionId, reason: answer.reason };
  }
}

/**
 * The worker's calls for a payout: send or query at the rail of the payout's mode. A live payout with no live rail
 * (configured away after it was made) throws, which the worker takes as no answer and asks again later.
 */
export function payoutCallsOf(rails: BankRails) {
  return (row: PayoutRow): ProviderCalls => ({
    pay: async (signal) => asProviderAnswer(await railFor(row.mode, rails).send(orderOf(row), signal)),
    query: async (signal) => {
      const found = await railFor(row.mode, rails).query(row.id, signal);
      return found.status === "not-found" ? found : asProviderAnswer(found);
    },
  });
}
