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

/** A row of bills.payments. */
export interface PaymentRow {
  id: string;
  business_id: string;
  mode: string;
  status: PaymentStatus;
  biller_status: BillerStatus;
  attempts: number;
  version: number;
  amount: number;
  fee: number;
  fee_breakdown: FeeItem[];
  currency: string;
  product: string;
  method_data: BillMethodData;
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

/** How a product's flat fee is itemised on the payment. */
export const feeBreakdownOf = (fee: number): FeeItem[] =>
  fee > 0 ? [{ amount: fee, group: "bill-payment", type: "flat" }] : [];

/** The public payment record (compatibility notes, "Payments"). */
export function toPaymentRecord(row: PaymentRow) {
  return {
    id: row.id,
    object: "payment" as const,
    type: "bill" as const,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    fees: row.fee,
    feeBreakdown: row.fee_breakdown,
    account: row.account,
    // The original interface shows the account id (equal to `account`); null until the ledger named the default.
    fundingSource: row.funding_source.account ?? row.account,
    method: "bill" as const,
    methodData: row.method_data,
    customer: row.customer,
    reference: row.reference,
    failureReason: row.failure_reason,
    events: row.events,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
export type PaymentRecord = ReturnType<typeof toPaymentRecord>;

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
