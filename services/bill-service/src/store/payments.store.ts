import type { Queryable } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";
import type { BillPaymentRow, PaymentRow, PayoutRow } from "../domain/payment-record";
import type { PaymentState } from "../domain/payment-state";

export const SCHEMA = "bills";

/** GET /payments as the query language sees it. */
export const paymentResource = scopedResource(
  "payment",
  "bills.payments",
  {
    id: { type: "id", column: "id", sortable: true },
    type: { type: "string", column: "type" },
    status: { type: "string", column: "status", sortable: true },
    amount: { type: "number", column: "amount", sortable: true },
    fees: { type: "number", column: "fee", sortable: true },
    feeBreakdown: { type: "array", column: "fee_breakdown", filterable: false },
    currency: { type: "string", column: "currency", sortable: true },
    account: { type: "id", column: "account" },
    fundingSource: { type: "object", column: "funding_source" },
    method: { type: "string", column: "method" },
    methodData: { type: "object", column: "method_data" },
    product: { type: "id", column: "product", selectable: false },
    customer: { type: "id", column: "customer" },
    reference: { type: "string", column: "reference", sortable: true, nullable: true },
    failureReason: { type: "string", column: "failure_reason" },
    events: { type: "array", column: "events" },
    metadata: { type: "object", column: "metadata" },
    createdAt: { type: "date", column: "created_at", sortable: true },
    updatedAt: { type: "date", column: "updated_at", sortable: true },
  },
  { relations: { customer: "customer" } },
);

const COLUMNS = `id, business_id, mode, type, method, status, biller_status, attempts, version, amount, fee, fee_breakdown,
  currency, product, method_data, funding_source, account, customer, reference, failure_reason, events, metadata, created_at, updated_at`;

type NewRow<Row> = Omit<Row, "business_id" | "mode" | "biller_status" | "attempts" | "version">;
/** A bill payment or a payout to record. */
export type NewPayment = NewRow<BillPaymentRow> | NewRow<PayoutRow>;

/** Records a payment, due for a check after `checkInMs`; undefined when its reference is taken (nothing written). */
export async function insertPayment(
  db: Queryable,
  scope: Scope,
  p: NewPayment,
  checkInMs: number,
): Promise<PaymentRow | undefined> {
  const { rows } = await db.query<PaymentRow & Record<string, unknown>>(
    `INSERT INTO bills.payments
       (id, business_id, mode, status, biller_status, amount, fee, fee_breakdown, currency, product, method_data,
        funding_source, account, customer, reference, failure_reason, events, metadata, created_at, updated_at,
        next_check_at, type, method)
     VALUES ($1, $2, $3, $4, 'not-called', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
             now() + $20::int * interval '1 millisecond', $21, $22)
     ON CONFLICT (business_id, mode, reference) WHERE reference IS NOT NULL DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      p.id,
      scope.businessId,
      scope.mode,
      p.status,
      p.amount,
      p.fee,
      JSON.stringify(p.fee_breakdown),
      p.currency,
      p.product,
      p.method_data,
      p.funding_source,
      p.account,
      p.customer,
      p.reference,
      p.failure_reason,
      JSON.stringify(p.events),
      p.metadata,
      p.created_at,
      p.updated_at,
      checkInMs,
      p.type,
      p.method,
    ],
  );
  return rows[0];
}

export async function findPayment(db: Queryable, scope: Scope, id: string): Promise<PaymentRow | undefined> {
  const { rows } = await db.query<PaymentRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM bills.payments WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

export async function findPaymentByReference(
  db: Queryable,
  scope: Scope,
  reference: string,
): Promise<PaymentRow | undefined> {
  const { rows } = await db.query<PaymentRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM bills.payments WHERE reference = $1 AND business_id = $2 AND mode = $3`,
    [reference, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** The payment, locked until the caller's transaction ends. */
export async function lockPayment(tx: Queryable, scope: Scope, id: string): Promise<PaymentRow | undefined> {
  const { rows } = await tx.query<PaymentRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM bills.payments WHERE id = $1 AND business_id = $2 AND mode = $3 FOR UPDATE`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** Adds a key to a payment's methodData (a requeue's link), as a change of the payment. */
export async function addToMethodData(
  tx: Queryable,
  scope: Scope,
  id: string,
  entry: { requeuedFrom: string } | { requeuedAs: string },
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE bills.payments SET method_data = method_data || $4::jsonb, updated_at = $5, version = version + 1
      WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [id, scope.businessId, scope.mode, JSON.stringify(entry), now],
  );
}

/** Adds the id of one more event sent about a payment to its events; the payment as it is then. */
export async function addPaymentEvent(
  tx: Queryable,
  scope: Scope,
  id: string,
  eventId: string,
  now: Date,
): Promise<PaymentRow | undefined> {
  const { rows } = await tx.query<PaymentRow & Record<string, unknown>>(
    `UPDATE bills.payments SET events = events || jsonb_build_array($4::text), updated_at = $5, version = version + 1
      WHERE id = $1 AND business_id = $2 AND mode = $3
      RETURNING ${COLUMNS}`,
    [id, scope.businessId, scope.mode, eventId, now],
  );
  return rows[0];
}

export interface StateChange {
  state: PaymentState;
  events: string[];
  /** null: final, the worker leaves it alone. */
  nextCheckInMs: number | null;
}

/** Writes a new state over the version it was computed from; undefined when the payment changed meanwhile. */
export async function savePaymentState(
  tx: Queryable,
  row: PaymentRow,
  change: StateChange,
  now: Date,
): Promise<PaymentRow | undefined> {
  const { state } = change;
  const { rows } = await tx.query<PaymentRow & Record<string, unknown>>(
    `UPDATE bills.payments
        SET status = $5, biller_status = $6, attempts = $7, failure_reason = $8, account = $9,
            method_data = method_data || jsonb_build_object('billerReference', $10::text, 'output', $11::jsonb),
            events = $12, updated_at = $13, version = version + 1,
            next_check_at = CASE WHEN $14::int IS NULL THEN NULL ELSE now() + $14::int * interval '1 millisecond' END
      WHERE id = $1 AND business_id = $2 AND mode = $3 AND version = $4
      RETURNING ${COLUMNS}`,
    [
      row.id,
      row.business_id,
      row.mode,
      row.version,
      state.status,
      state.billerStatus,
      state.attempts,
      state.failureReason,
      state.account,
      state.billerReference,
      state.output === null ? null : JSON.stringify(state.output),
      JSON.stringify(change.events),
      now,
      change.nextCheckInMs,
    ],
  );
  return rows[0];
}

/**
 * Claims up to `limit` payments whose check time has come, across businesses: each is pushed `leaseMs` into the
 * future (so another worker leaves it alone while this one calls the biller) and its version bumped.
 */
export async function claimDuePayments(db: Queryable, limit: number, leaseMs: number): Promise<PaymentRow[]> {
  const { rows } = await db.query<PaymentRow & Record<string, unknown>>(
    `UPDATE bills.payments SET next_check_at = now() + $2::int * interval '1 millisecond', version = version + 1
      WHERE id IN (SELECT id FROM bills.payments WHERE next_check_at <= now()
                    ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING ${COLUMNS}`,
    [limit, leaseMs],
  );
  return rows;
}
