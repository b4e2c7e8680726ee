import type { Lien } from "@cardhold/receiver";
import type { Sql } from "./database.js";

export interface LienRow extends Lien {
  authorization: string;
  wallet: string;
  card: string;
  createdAt: string;
  updatedAt: string;
}

interface DbLien {
  authorization_id: string;
  wallet_id: string;
  card_id: string;
  locked: string | number;
  debited: string | number;
  created_at: Date | string;
  updated_at: Date | string;
}

const toLien = (r: DbLien): LienRow => ({
  authorization: r.authorization_id,
  wallet: r.wallet_id,
  card: r.card_id,
  locked: Number(r.locked),
  debited: Number(r.debited),
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

export async function findLien(sql: Sql, authorizationId: string, lock = false): Promise<LienRow | undefined> {
  const rows = await sql.query<DbLien>(
    `SELECT * FROM wallet_receiver.liens WHERE authorization_id = $1${lock ? " FOR UPDATE" : ""}`,
    [authorizationId],
  );
  return rows[0] && toLien(rows[0]);
}

export async function insertLien(
  sql: Sql,
  l: { authorization: string; wallet: string; card: string } & Lien,
): Promise<void> {
  await sql.query(
    "INSERT INTO wallet_receiver.liens (authorization_id, wallet_id, card_id, locked, debited) VALUES ($1, $2, $3, $4, $5)",
    [l.authorization, l.wallet, l.card, l.locked, l.debited],
  );
}

export async function saveLien(sql: Sql, authorizationId: string, l: Lien): Promise<void> {
  await sql.query(
    "UPDATE wallet_receiver.liens SET locked = $2, debited = $3, updated_at = now() WHERE authorization_id = $1",
    [authorizationId, l.locked, l.debited],
  );
}

export async function listLiens(
  sql: Sql,
  filter: { authorization?: string; wallet?: string; card?: string },
  limit = 100,
): Promise<LienRow[]> {
  const rows = await sql.query<DbLien>(
    `SELECT * FROM wallet_receiver.liens
      WHERE ($1::text IS NULL OR authorization_id = $1) AND ($2::text IS NULL OR wallet_id = $2) AND ($3::text IS NULL OR card_id = $3)
      ORDER BY created_at DESC, authorization_id DESC LIMIT $4`,
    [filter.authorization ?? null, filter.wallet ?? null, filter.card ?? null, limit],
  );
  return rows.map(toLien);
}
