import type { PaymentRequestRefundReason } from "@cardhold/contracts";
import { present, type Json } from "../record-shape";
import type { PaymentRequestRow } from "../store/payment-requests.store";

/** The payment request record: the request's fields, its bank account and virtual account, and how it stands. */
export function toPaymentRequestRecord(row: PaymentRequestRow): Json {
  return present({
    id: row.id,
    object: "payment-request",
    method: row.method,
    options: row.options,
    currency: row.currency,
    amount: row.amount,
    customer: row.customer_id,
    reference: row.reference,
    account: row.account_id,
    virtualAccount: row.virtual_account_id,
    bankAccount: row.bank_account,
    status: row.status,
    paidAt: row.paid_at?.toISOString(),
    paymentReference: row.payment_reference,
    refundedPayments: row.refunded_payments,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}

/** A pay-in sent back to its payer, as payment-request.payment-refunded carries it beside the request's record. */
export interface RefundedPayIn {
  amount: number;
  reason: PaymentRequestRefundReason;
  reference?: string;
  refundedAt: string;
}
