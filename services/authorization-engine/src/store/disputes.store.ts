import type { Queryable } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";
import type { DisputeReason } from "@cardhold/contracts";
import type { DisputeStatus } from "../domain/dispute";

/** A dispute of a card authorization (migration 007). */
export interface DisputeRow {
  id: string;
  authorization_id: string;
  card_id: string;
  customer_id: string;
  /** The cardholder's account: the disputed authorization's funding account, which credits go to. */
  account_id: string;
  reason: DisputeReason;
  text: string | null;
  documents: string[];
  user_id: string | null;
  status: DisputeStatus;
  amount: number;
  currency: string;
  provisional_credit: number;
  owed: number;
  webhook_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** GET /disputes as the query language sees it. */
export const disputeResource = scopedResource(
  "dispute",
  "engine.disputes",
  {
    id: { type: "id", column: "id", sortable: true },
    source: { type: "id", column: "authorization_id" },
    card: { type: "id", column: "card_id" },
    customer: { type: "id", column: "customer_id" },
    account: { type: "id", column: "account_id" },
    reason: { type: "string", column: "reason", sortable: true },
    text: { type: "string", column: "text" },
    documents: { type: "array", column: "documents" },
    user: { type: "string", column: "user_id" },
    status: { type: "string", column: "status", sortable: true },
    amount: { type: "number", column: "amount", sortable: true },
    currency: { type: "string", column: "currency" },
    provisionalCredit: { type: "number", column: "provisional_credit" },
    owed: { type: "number", column: "owed" },
    createdAt: { type: "date", column: "created_at", sortable: true },
    updatedAt: { type: "date", column: "updated_at", sortable: true },
  },
  { relations: { source: "authorization", card: "card", customer: "customer", account: "account" } },
);

export async function insertDispute(db: Queryable, scope: Scope, d: DisputeRow): Promise<DisputeRow> {
  const { rows } = await db.query<DisputeRow & Record<string, unknown>>(
    `INSERT INTO engine.disputes (id, business_id, mode, authorization_id, card_id, customer_id, account_id, reason, text,
       documents, user_id, status, amount, currency, provisional_credit, owed, webhook_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $16, $17, $18, $18) RETURNING *`,
    [
      d.id,
      scope.businessId,
      scope.mode,
      d.authorization_id,
      d.card_id,
      d.customer_id,
      d.account_id,
      d.reason,
      d.text,
      JSON.stringify(d.documents),
      d.user_id,
      d.status,
      d.amount,
      d.currency,
      d.provisional_credit,
      d.owed,
      d.webhook_id,
      d.created_at,
    ],
  );
  return rows[0]!;
}

export async function findDispute(
  db: Queryable,
  scope: Scope,
  id: string,
  lock = false,
): Promise<DisputeRow | undefined> {
  const { rows } = await db.query<DisputeRow & Record<string, unknown>>(
    `SELECT * FROM engine.disputes WHERE id = $1 AND business_id = $2 AND mode = $3${lock ? " FOR UPDATE" : ""}`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** An authorization's disputes so far: the open one, if any, and the minor units the won ones got back. */
export async function disputesOfAuthorization(
  db: Queryable,
  scope: Scope,
  authorizationId: string,
): Promise<{ open: string | null; won: number }> {
  const { rows } = await db.query<{ open: string | null; won: number }>(
    `SELECT (array_agg(id) FILTER (WHERE status = 'open'))[1] AS open,
            COALESCE(sum(amount) FILTER (WHERE status = 'won'), 0)::bigint AS won
       FROM engine.disputes WHERE authorization_id = $1 AND business_id = $2 AND mode = $3`,
    [authorizationId, scope.businessId, scope.mode],
  );
  return { open: rows[0]?.open ?? null, won: Number(rows[0]?.won ?? 0) };
}

/** Writes a dispute's changeable fields (evidence, status, owed) as the row carries them; answers the stored row. */
export async function updateDispute(db: Queryable, scope: Scope, d: DisputeRow): Promise<DisputeRow> {
  const { rows } = await db.query<DisputeRow & Record<string, unknown>>(
    `UPDATE engine.disputes SET text = $4, documents = $5::jsonb, user_id = $6, status = $7, owed = $8, updated_at = now()
      WHERE id = $1 AND business_id = $2 AND mode = $3 RETURNING *`,
    [d.id, scope.businessId, scope.mode, d.text, JSON.stringify(d.documents), d.user_id, d.status, d.owed],
  );
  return rows[0]!;
}
