import type { Queryable } from "@cardhold/db";

/** A row of bills.sandbox_orders: the sandbox biller's own book of orders (global: a biller knows no businesses). */
export interface SandboxOrderRow {
  reference: string;
  product: string;
  account_number: string;
  amount: number;
  currency: string;
  outcome: "successful" | "failed";
  failure_reason: string | null;
  output: Record<string, string> | null;
  biller_reference: string;
  /** Until then the order is pending; null when it was final at once. */
  resolves_at: Date | null;
  created_at: Date;
}

export type NewSandboxOrder = Omit<SandboxOrderRow, "resolves_at" | "created_at"> & { pendingMs: number | null };

const COLUMNS =
  "reference, product, account_number, amount, currency, outcome, failure_reason, output, biller_reference, resolves_at, created_at";

/** Records the order unless its reference is known; either way returns the order as first recorded. */
export async function insertSandboxOrder(db: Queryable, o: NewSandboxOrder): Promise<SandboxOrderRow> {
  const { rows } = await db.query<SandboxOrderRow & Record<string, unknown>>(
    `WITH inserted AS (
       INSERT INTO bills.sandbox_orders
         (reference, product, account_number, amount, currency, outcome, failure_reason, output, biller_reference, resolves_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
               CASE WHEN $10::int IS NULL THEN NULL ELSE now() + $10::int * interval '1 millisecond' END)
       ON CONFLICT (reference) DO NOTHING
       RETURNING ${COLUMNS})
     SELECT ${COLUMNS} FROM inserted
     UNION ALL
     SELECT ${COLUMNS} FROM bills.sandbox_orders WHERE reference = $1 AND NOT EXISTS (SELECT 1 FROM inserted)`,
    [
      o.reference,
      o.product,
      o.account_number,
      o.amount,
      o.currency,
      o.outcome,
      o.failure_reason,
      o.output === null ? null : JSON.stringify(o.output),
      o.biller_reference,
      o.pendingMs,
    ],
  );
  return rows[0]!;
}

export async function findSandboxOrder(
  db: Queryable,
  reference: string,
): Promise<{ order: SandboxOrderRow; now: Date } | undefined> {
  const { rows } = await db.query<SandboxOrderRow & { now: Date } & Record<string, unknown>>(
    `SELECT ${COLUMNS}, now() AS now FROM bills.sandbox_orders WHERE reference = $1`,
    [reference],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { now, ...order } = row;
  return { order, now };
}
