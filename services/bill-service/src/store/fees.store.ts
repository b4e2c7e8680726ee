import type { PublishedFee } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

/** A row of bills.fees: the engine's fee as fees.v1 announced it. */
export interface FeeRow {
  id: string;
  name: string;
  structure: "flat" | "percentage";
  currency: string;
  /** numeric: PostgreSQL's exact decimal, read as its text ("1.5"). */
  value: string;
  cap: number | null;
  account: string;
}

/** Keeps a fee from fees.v1; a redelivery changes nothing (a fee never changes). */
export async function insertProjectedFee(db: Queryable, scope: Scope, fee: PublishedFee): Promise<void> {
  await db.query(
    `INSERT INTO bills.fees (id, business_id, mode, name, structure, currency, value, cap, account, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (id) DO NOTHING`,
    [
      fee.id,
      scope.businessId,
      scope.mode,
      fee.name,
      fee.structure,
      fee.currency,
      String(fee.value),
      fee.cap,
      fee.account,
      fee.createdAt,
    ],
  );
}

export async function findProjectedFee(db: Queryable, scope: Scope, id: string): Promise<FeeRow | undefined> {
  const { rows } = await db.query<FeeRow & Record<string, unknown>>(
    `SELECT id, name, structure, currency, value, cap, account FROM bills.fees
      WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** Whether any business's fee has this id: a fee of another business is not worth waiting for. */
export async function isFeeProjected(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query("SELECT 1 FROM bills.fees WHERE id = $1", [id]);
  return (rowCount ?? 0) > 0;
}
