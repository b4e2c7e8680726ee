import type { PaymentRequestStatus } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";

/** The bank account a payment request is paid into: its virtual account's deposit channel, as made with it. */
export interface PaymentRequestBankAccount {
  accountName: string;
  accountNumber: string;
  bankName: string;
  bankCode: string;
  partner: string;
}

/** A payment request (migration 008). */
export interface PaymentRequestRow {
  id: string;
  method: string;
  options: { name: string; bank?: string };
  currency: string;
  amount: number;
  customer_id: string | null;
  reference: string | null;
  metadata: Record<string, unknown>;
  account_id: string;
  virtual_account_id: string;
  bank_account: PaymentRequestBankAccount;
  status: PaymentRequestStatus;
  paid_at: Date | null;
  payment_reference: string | null;
  payment_movement_id: string | null;
  refunded_payments: number;
  created_at: Date;
  updated_at: Date;
}

export type NewPaymentRequest = Omit<
  PaymentRequestRow,
  "status" | "paid_at" | "payment_reference" | "payment_movement_id" | "refunded_payments" | "updated_at"
>;

/** GET /payment-requests as the query language sees it. */
export const paymentRequestResource = scopedResource(
  "payment request",
  "engine.payment_requests",
  {
    id: { type: "id", column: "id", sortable: true },
    method: { type: "string", column: "method", sortable: true },
    options: { type: "object", column: "options" },
    currency: { type: "string", column: "currency", sortable: true },
    amount: { type: "number", column: "amount", sortable: true },
    customer: { type: "id", column: "customer_id" },
    reference: { type: "string", column: "reference" },
    account: { type: "id", column: "account_id" },
    virtualAccount: { type: "id", column: "virtual_account_id" },
    bankAccount: { type: "object", column: "bank_account" },
    status: { type: "string", column: "status", sortable: true },
    paidAt: { type: "date", column: "paid_at", sortable: true, nullable: true },
    paymentReference: { type: "string", column: "payment_reference" },
    refundedPayments: { type: "number", column: "refunded_payments", sortable: true },
    metadata: { type: "object", column: "metadata" },
    createdAt: { type: "date", column: "created_at", sortable: true },
    updatedAt: { type: "date", column: "updated_at", sortable: true },
  },
  { relations: { customer: "customer", account: "account", virtualAccount: "account" } },
);

type Row = PaymentRequestRow & Record<string, unknown>;

export async function insertPaymentRequest(
  db: Queryable,
  scope: Scope,
  r: NewPaymentRequest,
): Promise<PaymentRequestRow> {
  const { rows } = await db.query<Row>(
    `INSERT INTO engine.payment_requests (id, business_id, mode, method, options, currency, amount, customer_id,
       reference, metadata, account_id, virtual_account_id, bank_account, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10::jsonb, $11, $12, $13::jsonb, 'pending', $14, $14)
     RETURNING *`,
    [
      r.id,
      scope.businessId,
      scope.mode,
      r.method,
      JSON.stringify(r.options),
      r.currency,
      r.amount,
      r.customer_id,
      r.reference,
      JSON.stringify(r.metadata),
      r.account_id,
      r.virtual_account_id,
      JSON.stringify(r.bank_account),
      r.created_at,
    ],
  );
  return rows[0]!;
}

export async function findPaymentRequest(
  db: Queryable,
  scope: Scope,
  id: string,
  lock = false,
): Promise<PaymentRequestRow | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM engine.payment_requests WHERE id = $1 AND business_id = $2 AND mode = $3${lock ? " FOR UPDATE" : ""}`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** The payment request whose virtual account this is, if any: its id (a pay-in then goes through the request). */
export async function paymentRequestOfAccount(
  db: Queryable,
  scope: Scope,
  virtualAccountId: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM engine.payment_requests WHERE virtual_account_id = $1 AND business_id = $2 AND mode = $3",
    [virtualAccountId, scope.businessId, scope.mode],
  );
  return rows[0]?.id;
}

/** Marks a request the caller locked as paid by `payment`; answers the stored row. */
export async function completePaymentRequest(
  db: Queryable,
  scope: Scope,
  id: string,
  payment: { paidAt: Date; reference: string | null; movementId: string },
): Promise<PaymentRequestRow> {
  const { rows } = await db.query<Row>(
    `UPDATE engine.payment_requests
        SET status = 'completed', paid_at = $4, payment_reference = $5, payment_movement_id = $6, updated_at = $4
      WHERE id = $1 AND business_id = $2 AND mode = $3 RETURNING *`,
    [id, scope.businessId, scope.mode, payment.paidAt, payment.reference, payment.movementId],
  );
  return rows[0]!;
}

/** Counts one more pay-in sent back to its payer on a request the caller locked; answers the stored row. */
export async function countRefundedPayment(db: Queryable, scope: Scope, id: string): Promise<PaymentRequestRow> {
  const { rows } = await db.query<Row>(
    `UPDATE engine.payment_requests SET refunded_payments = refunded_payments + 1, updated_at = now()
      WHERE id = $1 AND business_id = $2 AND mode = $3 RETURNING *`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0]!;
}
