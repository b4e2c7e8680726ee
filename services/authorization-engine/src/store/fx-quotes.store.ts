import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

export interface FxQuoteRow {
  hash: string;
  business_id: string;
  mode: string;
  from_currency: string;
  to_currency: string;
  /** numeric: PostgreSQL's exact decimal, read as its text ("1485"). */
  rate: string;
  provider: string;
  amount: number;
  debit_amount: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  used_for: string | null;
}

export type NewFxQuote = Pick<
  FxQuoteRow,
  "hash" | "from_currency" | "to_currency" | "rate" | "provider" | "amount" | "debit_amount"
>;

/** Stores a quote made now (the database's clock) that expires `lifetimeMs` later. */
export async function insertFxQuote(
  db: Queryable,
  scope: Scope,
  q: NewFxQuote,
  lifetimeMs: number,
): Promise<FxQuoteRow> {
  const { rows } = await db.query<FxQuoteRow & Record<string, unknown>>(
    `INSERT INTO engine.fx_quotes (hash, business_id, mode, from_currency, to_currency, rate, provider, amount,
       debit_amount, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6::numeric, $7, $8, $9, now(), now() + $10::int * interval '1 millisecond')
     RETURNING *`,
    [
      q.hash,
      scope.businessId,
      scope.mode,
      q.from_currency,
      q.to_currency,
      q.rate,
      q.provider,
      q.amount,
      q.debit_amount,
      lifetimeMs,
    ],
  );
  return rows[0]!;
}

/** A quote of this business and mode, locked for the rest of the transaction; `expired` by the database's clock. */
export async function lockFxQuote(
  db: Queryable,
  scope: Scope,
  hash: string,
): Promise<(FxQuoteRow & { expired: boolean }) | undefined> {
  const { rows } = await db.query<FxQuoteRow & { expired: boolean } & Record<string, unknown>>(
    `SELECT *, expires_at <= now() AS expired FROM engine.fx_quotes
      WHERE hash = $1 AND business_id = $2 AND mode = $3 FOR UPDATE`,
    [hash, scope.businessId, scope.mode],
  );
  return rows[0];
}

/** Marks a quote the caller locked as used, for `cardId`. */
export async function markFxQuoteUsed(db: Queryable, scope: Scope, hash: string, cardId: string): Promise<void> {
  await db.query(
    `UPDATE engine.fx_quotes SET used_at = now(), used_for = $4
      WHERE hash = $1 AND business_id = $2 AND mode = $3 AND used_at IS NULL`,
    [hash, scope.businessId, scope.mode, cardId],
  );
}
