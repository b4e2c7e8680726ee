import type { BillerStatus, PaymentState, PaymentStatus } from "./payment-state";

/** What a bill payment records about its bill (the record's methodData). */
export interface BillMethodData {
  product: string;
  productName: string;
  category: string;
  biller: string;
  inputs: Record<string, string>;
  accountNumber: string;
  /** The account holder's name at the biller, from the lookup. */
  accountName: string | null;
  /** The biller's own id of the order, once it gave one. */
  billerReference: string | null;
  /** What a successful payment returned (e.g. token and units), else null. */
  output: Record<string, string> | null;
  /** A requeue: the failed payment this one retries (POST /payments/:id/requeue). */
  requeuedFrom?: string;
  /** A failed payment that was requeued: the payment that retries it. */
  requeuedAs?: string;
}

/** One item of a payment's feeBreakdown; `fee` names the configured fee it charges (none: the product's own fee). */
export interface FeeItem {
  amount: number;
  group: string;
  type: string;
  fee?: string;
}

/** Where a payout sends the money, and from whom (the record's methodData.bankTransfer, without the session id). */
export interface BankTransferDetails {
  accountNumber: string;
  /** The beneficiary bank's NIP code (`000013`), whichever code the request named it by. */
  bankCode: string;
  bankName: string;
  /** The beneficiary's name, from the bank's name enquiry. */
  accountName: string;
  /** The sender's name: the payout's customer, else null (the ledger's accounts have no holder name here). */
  sourceAccountName: string | null;
  narration: string;
  note: string | null;
}

/** What a payout records (the stored methodData); the payment state keeps the rail's session id as billerReference. */
export interface PayoutMethodData {
  bankTransfer: BankTransferDetails;
  /** The rail's session id of the transfer, once it gave one. */
  billerReference: string | null;
  output: Record<string, string> | null;
}

/** The columns every payment has, whatever it pays. */
interface PaymentRowCommon {
  id: string;
  business_id: string;
  mode: string;
  status: PaymentStatus;
  /** Where the order stands at the provider: the biller, or the bank rail for a payout. */
  biller_status: BillerStatus;
  attempts: number;
  version: number;
  amount: number;
  fee: number;
  fee_breakdown: FeeItem[];
  currency: string;
  funding_source: { type: "account"; account: string | null };
  account: string | null;
  customer: string | null;
  reference: string | null;
  failure_reason: string | null;
  events: string[];
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** A row of bills.payments: a bill payment. */
export interface BillPaymentRow extends PaymentRowCommon {
  type: "bill";
  method: "bill";
  product: string;
  method_data: BillMethodData;
}

/** A row of bills.payments: a payout to a bank account (POST /payments/payouts). */
export interface PayoutRow extends PaymentRowCommon {
  type: "pay-out";
  method: "bank-transfer";
  product: null;
  method_data: PayoutMethodData;
}

export type PaymentRow = BillPaymentRow | PayoutRow;

/** How a product's flat fee is itemised on the payment. */
export const feeBreakdownOf = (fee: number): FeeItem[] =>
  fee > 0 ? [{ amount: fee, group: "bill-payment", type: "flat" }] : [];

/** What every payment's record shows the same way, whatever its type. */
function paymentFields<T extends PaymentRow["type"]>(row: PaymentRow, type: T) {
  return {
    id: row.id,
    object: "payment" as const,
    type,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    fees: row.fee,
    feeBreakdown: row.fee_breakdown,
    account: row.account,
    // The original interface shows the account id (equal to `account`); null until the ledger named the default.
    fundingSource: row.funding_source.account ?? row.account,
    customer: row.customer,
    reference: row.reference,
    failureReason: row.failure_reason,
    events: row.events,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The public payment record of a bill payment (compatibility notes, "Payments"). */
export function toBillPaymentRecord(row: BillPaymentRow) {
  return { ...paymentFields(row, "bill" as const), method: "bill" as const, methodData: row.method_data };
}
export type BillPaymentRecord = ReturnType<typeof toBillPaymentRecord>;

/** The public payment record of a payout (compatibility notes, "Payouts"): type `pay-out`, methodData.bankTransfer. */
export function toPayoutRecord(row: PayoutRow) {
  const { bankTransfer, billerReference } = row.method_data;
  return {
    ...paymentFields(row, "pay-out" as const),
    method: "bank-transfer" as const,
    methodData: { bankTransfer: { ...bankTransfer, sessionId: billerReference } },
  };
}
export type PayoutRecord = ReturnType<typeof toPayoutRecord>;

/** The public record of any payment. */
export const toPaymentRecord = (row: PaymentRow): PaymentRecord =>
  row.type === "pay-out" ? toPayoutRecord(row) : toBillPaymentRecord(row);
export type PaymentRecord = BillPaymentRecord | PayoutRecord;

export function stateOf(row: PaymentRow): PaymentState {
  return {
    status: row.status,
    billerStatus: row.biller_status,
    attempts: row.attempts,
    failureReason: row.failure_reason,
    account: row.account,
    billerReference: row.method_data.billerReference,
    output: row.method_data.output,
  };
}
