import type { Queryable, Write } from "@cardhold/db";
import { scopedResource, type Scope } from "@cardhold/query";

export interface TransactionRow {
  id: string;
  authorization_id: string;
  card_id: string;
  customer_id: string;
  type: string;
  channel: string;
  currency: string;
  amount: number;
  fees: number;
  mcc: string | null;
  network_data: Record<string, string>;
  created_at: Date;
}

export const transactionResource = scopedResource(
  "card transaction",
  "engine.transactions",
  {
    id: { type: "id", column: "id", sortable: true },
    authorization: { type: "id", column: "authorization_id" },
    card: { type: "id", column: "card_id" },
    customer: { type: "id", column: "customer_id" },
    type: { type: "string", column: "type", sortable: true },
    channel: { type: "string", column: "channel" },
    currency: { type: "string", column: "currency" },
    amount: { type: "number", column: "amount", sortable: true },
    fees: { type: "number", column: "fees" },
    mcc: { type: "string", column: "mcc" },
    networkData: { type: "object", column: "network_data" },
    createdAt: { type: "date", column: "created_at", sortable: true },
    /** A transaction never changes once made: its updatedAt is its createdAt. */
    updatedAt: { type: "date", column: "created_at", sortable: true },
  },
  { relations: { authorization: "authorization", card: "card", customer: "customer" } },
);

export function transactionInsert(scope: Scope, t: TransactionRow): Write {
  return {
    text: `INSERT INTO engine.transactions (id, business_id, mode, authorization_id, card_id, customer_id, type, channel, currency,
             amount, fees, mcc, network_data, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    values: [
      t.id,
      scope.businessId,
      scope.mode,
      t.authorization_id,
      t.card_id,
      t.customer_id,
      t.type,
      t.channel,
      t.currency,
      t.amount,
      t.fees,
      t.mcc,
      t.network_data,
      t.created_at,
    ],
  };
}

export async function findTransaction(db: Queryable, scope: Scope, id: string): Promise<TransactionRow | undefined> {
  const { rows } = await db.query<TransactionRow & Record<string, unknown>>(
    "SELECT * FROM engine.transactions WHERE id = $1 AND business_id = $2 AND mode = $3",
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}
