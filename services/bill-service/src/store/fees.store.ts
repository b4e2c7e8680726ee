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

/**
 * The fee with this id whichever business it is of, with its business and mode: in one read, a fee of another
 * business (not worth waiting for) is told apart from this one's arriving between two reads.
 */
export async function findAnyProjectedFee(
  db: Queryable,
  id: string,
): Promise<(FeeRow & { business_id: string; mode: string }) | undefined> {
  const { rows } = await db.query<FeeRow & { business_id: string; mode: string } & Record<string, unknown>>(
    `SELECT id, name, structure, currency, value, cap, account, business_id, mode FROM bills.fees WHERE id = $1`,
    [id],
  );
  return rows[0];
}
