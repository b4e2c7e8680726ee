import type { Queryable } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";
import type { FeeTerms } from "../domain/fees";
import type { StandIn } from "../domain/stand-in";

export interface ProgramRow {
  id: string;
  name: string;
  description: string | null;
  network: "verve" | "mastercard";
  type: "virtual" | "physical";
  quantity: number | null;
  currency: string;
  distribution: Record<string, unknown> | null;
  personalization: Record<string, unknown> | null;
  funding_source_type: "card-account" | "settlement-account";
  settlement_account_id: string;
  /** Minor units per capture: the program's fee when it names no fee (transaction_fee_id null). */
  transaction_fee: number;
  /** The fee the program names, and its terms as they were when the program was written (fees never change). */
  transaction_fee_id: string | null;
  transaction_fee_structure: "flat" | "percentage" | null;
  /** numeric, read as its text ("1.5"). */
  transaction_fee_value: string | null;
  transaction_fee_cap: number | null;
  /** The fee's account; null: the settlement account. */
  fees_account_id: string | null;
  webhook_id: string | null;
  timeout_default: "approve" | "decline" | null;
  /** Rules for a capture without a usable answer (domain/stand-in.ts); null: the flat timeout default decides. */
  stand_in: StandIn | null;
  /** Disputes: whether one credits the cardholder at once, and for how many days after an authorization it can open. */
  dispute_provisional_credit: boolean;
  dispute_window_days: number;
  status: "new" | "live";
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const programResource = scopedResource("card program", "engine.card_programs", {
  id: { type: "id", column: "id", sortable: true },
  name: { type: "string", column: "name", sortable: true },
  network: { type: "string", column: "network", sortable: true },
  type: { type: "string", column: "type", sortable: true },
  currency: { type: "string", column: "currency", sortable: true },
  status: { type: "string", column: "status", sortable: true },
  metadata: { type: "object", column: "metadata" },
  createdAt: { type: "date", column: "created_at", sortable: true },
  updatedAt: { type: "date", column: "updated_at", sortable: true },
});

/** What the program charges on a capture: its fee's terms, else its transaction_fee as a flat fee. */
export function transactionFeeTerms(
  p: Pick<
    ProgramRow,
    "transaction_fee" | "transaction_fee_structure" | "transaction_fee_value" | "transaction_fee_cap"
  >,
): FeeTerms {
  if (p.transaction_fee_structure === null || p.transaction_fee_value === null)
    return { structure: "flat", value: p.transaction_fee, cap: null };
  return { structure: p.transaction_fee_structure, value: Number(p.transaction_fee_value), cap: p.transaction_fee_cap };
}

export type ProgramFields = Omit<ProgramRow, "id" | "status" | "created_at" | "updated_at">;

const FIELDS = [
  "name",
  "description",
  "network",
  "type",
  "quantity",
  "currency",
  "distribution",
  "personalization",
  "funding_source_type",
  "settlement_account_id",
  "transaction_fee",
  "transaction_fee_id",
  "transaction_fee_structure",
  "transaction_fee_value",
  "transaction_fee_cap",
  "fees_account_id",
  "webhook_id",
  "timeout_default",
  "stand_in",
  "dispute_provisional_credit",
  "dispute_window_days",
  "metadata",
] as const satisfies ReadonlyArray<keyof ProgramFields>;

const values = (p: ProgramFields) => FIELDS.map((f) => p[f]);

export async function insertProgram(
  db: Queryable,
  scope: Scope,
  id: string,
  status: ProgramRow["status"],
  p: ProgramFields,
): Promise<ProgramRow> {
  const placeholders = FIELDS.map((_, i) => `$${i + 5}`).join(", ");
  const { rows } = await db.query<ProgramRow & Record<string, unknown>>(
    `INSERT INTO engine.card_programs (id, business_id, mode, status, ${FIELDS.join(", ")}, created_at, updated_at)
     VALUES ($1, $2, $3, $4, ${placeholders}, now(), now()) RETURNING *`,
    [id, scope.businessId, scope.mode, status, ...values(p)],
  );
  return rows[0]!;
}

/** Replaces the fields of a program that has not gone live; undefined when there is no such program. */
export async function updateNewProgram(
  db: Queryable,
  scope: Scope,
  id: string,
  p: ProgramFields,
): Promise<ProgramRow | undefined> {
  const sets = FIELDS.map((f, i) => `${f} = $${i + 4}`).join(", ");
  const { rows } = await db.query<ProgramRow & Record<string, unknown>>(
    `UPDATE engine.card_programs SET ${sets}, updated_at = now()
      WHERE id = $1 AND business_id = $2 AND mode = $3 AND status = 'new' RETURNING *`,
    [id, scope.businessId, scope.mode, ...values(p)],
  );
  return rows[0];
}

export async function setProgramLive(db: Queryable, scope: Scope, id: string): Promise<ProgramRow | undefined> {
  const { rows } = await db.query<ProgramRow & Record<string, unknown>>(
    `UPDATE engine.card_programs SET status = 'live', updated_at = now()
      WHERE id = $1 AND business_id = $2 AND mode = $3 RETURNING *`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

export async function findProgram(db: Queryable, scope: Scope, id: string): Promise<ProgramRow | undefined> {
  const { rows } = await db.query<ProgramRow & Record<string, unknown>>(
    "SELECT * FROM engine.card_programs WHERE id = $1 AND business_id = $2 AND mode = $3",
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

export async function findProgramsByIds(db: Queryable, scope: Scope, ids: string[]): Promise<ProgramRow[]> {
  const { rows } = await db.query<ProgramRow & Record<string, unknown>>(
    "SELECT * FROM engine.card_programs WHERE id = ANY($1::text[]) AND business_id = $2 AND mode = $3",
    [ids, scope.businessId, scope.mode],
  );
  return rows;
}
