import type { Transaction } from "@cardhold/receiver";
import type { Sql } from "./database.js";

/** Keeps each card.transaction.created once, for the admin API (the platform's record of what was debited). */
export async function insertTransaction(sql: Sql, t: Transaction): Promise<void> {
  await sql.query(
    `INSERT INTO wallet_receiver.card_transactions (id, authorization_id, card_id, amount, fees, currency, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
    [t.id, t.authorization, t.card, t.amount, t.fees, t.currency, t.createdAt],
  );
}

export async function listTransactions(sql: Sql, filter: { authorization?: string; card?: string }, limit = 100) {
  const rows = await sql.query<{
    id: string;
    authorization_id: string;
    card_id: string;
    amount: string | number;
    fees: string | number;
    currency: string;
    created_at: Date | string;
  }>(
    `SELECT * FROM wallet_receiver.card_transactions
      WHERE ($1::text IS NULL OR authorization_id = $1) AND ($2::text IS NULL OR card_id = $2)
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [filter.authorization ?? null, filter.card ?? null, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    authorization: r.authorization_id,
    card: r.card_id,
    amount: Number(r.amount),
    fees: Number(r.fees),
    currency: r.currency,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
