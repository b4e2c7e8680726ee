import type { Queryable } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";
import type { BillingStatus, CreateBillingInput } from "../domain/billing";

export interface BillingRow {
  id: string;
  business_id: string;
  mode: string;
  amount: number;
  currency: string;
  description: string;
  period: { start: string; end: string } | null;
  status: BillingStatus;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "id, business_id, mode, amount, currency, description, period, status, created_at, updated_at";

export async function insertBilling(
  db: Queryable,
  b: CreateBillingInput & { id: string; businessId: string },
): Promise<BillingRow> {
  const { rows } = await db.query<BillingRow & Record<string, unknown>>(
    `INSERT INTO gateway.billings (id, business_id, mode, amount, currency, description, period, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 'pending') RETURNING ${COLUMNS}`,
    [b.id, b.businessId, b.mode, b.amount, b.currency, b.description, b.period ? JSON.stringify(b.period) : null],
  );
  return rows[0]!;
}

/** The business's billing in this mode (what its keys may read). */
export async function findBilling(db: Queryable, scope: Scope, id: string): Promise<BillingRow | undefined> {
  const { rows } = await db.query<BillingRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM gateway.billings WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** The business's billing in either mode, locked for a change of status (the operator's view). */
export async function lockBusinessBilling(db: Queryable, businessId: string, id: string) {
  const { rows } = await db.query<BillingRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM gateway.billings WHERE id = $1 AND business_id = $2 FOR UPDATE`,
    [id, businessId],
  );
  return rows[0];
}

export async function setBillingStatus(db: Queryable, id: string, status: BillingStatus): Promise<BillingRow> {
  const { rows } = await db.query<BillingRow & Record<string, unknown>>(
    `UPDATE gateway.billings SET status = $2, updated_at = CASE WHEN status = $2 THEN updated_at ELSE now() END
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, status],
  );
  return rows[0]!;
}

export const billingResource = scopedResource("billing", "gateway.billings", {
  id: { type: "id", column: "id", sortable: true },
  amount: { type: "number", column: "amount", sortable: true },
  currency: { type: "string", column: "currency", sortable: true },
  description: { type: "string", column: "description" },
  period: { type: "object", column: "period" },
  status: { type: "string", column: "status", sortable: true },
  createdAt: { type: "date", column: "created_at", sortable: true },
  updatedAt: { type: "date", column: "updated_at", sortable: true },
});

export function toBillingRecord(row: BillingRow): Record<string, unknown> {
  return {
    id: row.id,
    object: "billing",
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    period: row.period,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
