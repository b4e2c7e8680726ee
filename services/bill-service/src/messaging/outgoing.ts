import type { OutgoingMessage } from "@cardhold/bus";
import {
  TOPICS,
  type Currency,
  type EventPublishedMessage,
  type LedgerDebitCommand,
  type LedgerRefundCommand,
  type Mode,
} from "@cardhold/contracts";
import { toPaymentRecord, type PaymentRow } from "../domain/payment-record";
import { paymentEventKind, type PaymentOutcomeKind } from "../domain/payment-state";

/** The ledger commands of a payment are idempotent by these ids: resending one never moves money twice. */
export const debitCommandId = (paymentId: string) => `${paymentId}:debit`;
export const refundCommandId = (paymentId: string) => `${paymentId}:refund`;

const COMMAND_ID = /^(p\.[1-9A-HJ-NP-Za-km-z]{17}):(debit|refund)$/;

/** The payment and the kind of command a ledger result answers, or undefined for a command that is not ours. */
export function parseCommandId(
  commandId: string,
): { paymentId: string; command: "ledger.debit" | "ledger.refund" } | undefined {
  const match = COMMAND_ID.exec(commandId);
  if (!match) return undefined;
  return { paymentId: match[1]!, command: match[2] === "debit" ? "ledger.debit" : "ledger.refund" };
}

const envelope = (row: PaymentRow) => ({
  businessId: row.business_id,
  mode: row.mode as Mode,
  occurredAt: new Date().toISOString(),
});
function description(row: PaymentRow): string {
  if (row.type === "pay-out") {
    const { bankName, accountNumber, accountName } = row.method_data.bankTransfer;
    return `Payout: bank transfer to ${accountName}, ${bankName} ${accountNumber}`.slice(0, 500);
  }
  return `Bill payment: ${row.method_data.productName} for ${row.method_data.accountNumber}`.slice(0, 500);
}

/** ledger.debit of amount + fee from the debit source (null: the business's default account in the currency). */
export function debitCommand(row: PaymentRow): OutgoingMessage {
  const value: LedgerDebitCommand = {
    type: "ledger.debit",
    ...envelope(row),
    data: {
      commandId: debitCommandId(row.id),
      account: row.funding_source.account,
      currency: row.currency as Currency,
      amount: row.amount + row.fee,
      reference: row.id,
      description: description(row),
    },
  };
  return { topic: TOPICS.ledgerCommands, key: row.id, value };
}

/** ledger.refund of what the payment's debit took. */
export function refundCommand(row: PaymentRow): OutgoingMessage {
  const value: LedgerRefundCommand = {
    type: "ledger.refund",
    ...envelope(row),
    data: {
      commandId: refundCommandId(row.id),
      debitCommandId: debitCommandId(row.id),
      reference: row.id,
      description: `Refund of ${description(row)}`.slice(0, 500),
    },
  };
  return { topic: TOPICS.ledgerCommands, key: row.id, value };
}

/**
 * The events.v1 message the event-dispatcher delivers to the business's webhook: the payment as it is now, under the
 * kind of its type and outcome (`payment.bill.completed`, `payment.payout.failed` …).
 */
export function paymentEvent(row: PaymentRow, outcome: PaymentOutcomeKind, eventId: string): OutgoingMessage {
  const event = paymentEventKind(row.type, outcome);
  const sentAt = new Date().toISOString();
  const value: EventPublishedMessage = {
    type: "event.published",
    ...envelope(row),
    data: { resourceId: row.id, envelope: { event, data: toPaymentRecord(row), metadata: { sentAt, event: eventId } } },
  };
  return { topic: TOPICS.events, key: row.id, value, id: `msg.${eventId}` };
}
