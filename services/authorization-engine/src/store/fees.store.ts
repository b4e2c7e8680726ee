import type { Queryable } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";

export interface FeeRow {
  id: string;
  name: string;
  description: string | null;
  structure: "flat" | "percentage";
  currency: string;
  /** numeric: PostgreSQL's exact decimal, read as its text ("1.5"). */
  value: string;
  cap: number | null;
  account_id: string;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const feeResource = scopedResource(
  "fee",
  "engine.fees",
  {
    id: { type: "id", column: "id", sortable: true },
    name: { type: "string", column: "name", sortable: true },
    structure: { type: "string", column: "structure", sortable: true },
    currency: { type: "string", column: "currency", sortable: true },
    value: { type: "number", column: "value", sortable: true },
    cap: { type: "number", column: "cap", sortable: true, nullable: true },
    account: { type: "id", column: "account_id" },
    metadata: { type: "object", column: "metadata" },
    createdAt: { type: "date", column: "created_at", sortable: true },
    updatedAt: { type: "date", column: "updated_at", sortable: true },
  },
  { relations: { account: "account" } },
);

export type FeeFields = Omit<FeeRow, "id" | "created_at" | "updated_at">;

export async function insertFee(db: Queryable, scope: Scope, id: string, fee: FeeFields): Promise<FeeRow> {
  const { rows } = await db.query<FeeRow & Record<string, unknown>>(
    `INSERT INTO engine.fees
       (id, business_id, mode, name, description, structure, currency, value, cap, account_id, metadata, created_at,
        updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now(), now()) RETURNING *`,
    [
      id,
      scope.businessId,
      scope.mode,
      fee.name,
      fee.description,
      fee.structure,
      fee.currency,
      fee.value,
      fee.cap,
      fee.account_id,
      fee.metadata,
    ],
  );
  return rows[0]!;
}

export async function findFee(db: Queryable, scope: Scope, id: string): Promise<FeeRow | undefined> {
  const { rows } = await db.query<FeeRow & Record<string, unknown>>(
    "SELECT * FROM engine.fees WHERE id = $1 AND business_id = $2 AND mode = $3",
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}
