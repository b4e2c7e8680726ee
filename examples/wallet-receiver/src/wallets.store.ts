import { randomBytes } from "node:crypto";
import type { Wallet } from "@cardhold/receiver";
import type { Sql } from "./database.js";

export interface WalletRow extends Wallet {
  id: string;
  captureLimit: number | null;
}

/** What the admin API shows: balances, what was debited so far (sum of the liens) and the linked cards. */
export interface WalletView extends WalletRow {
  object: "wallet";
  debited: number;
  cards: string[];
  createdAt: string;
}

interface DbWallet {
  id: string;
  holder_name: string;
  active: boolean;
  available: string | number;
  locked: string | number;
  capture_limit: string | number | null;
}

const COLUMNS = "w.id, w.holder_name, w.active, w.available, w.locked, w.capture_limit";

const toWallet = (r: DbWallet): WalletRow => ({
  id: r.id,
  holderName: r.holder_name,
  active: r.active,
  available: Number(r.available),
  locked: Number(r.locked),
  captureLimit: r.capture_limit === null ? null : Number(r.capture_limit),
});

export const newWalletId = () => `wal.${randomBytes(9).toString("base64url")}`;

export async function insertWallet(
  sql: Sql,
  w: { id: string; holderName: string; available: number; active: boolean; captureLimit: number | null },
) {
  await sql.query(
    "INSERT INTO wallet_receiver.wallets (id, holder_name, available, active, capture_limit) VALUES ($1, $2, $3, $4, $5)",
    [w.id, w.holderName, w.available, w.active, w.captureLimit],
  );
}

/** The wallet of a card; with lock, locked FOR UPDATE until the transaction ends (one delivery at a time per wallet). */
export async function findWalletByCard(sql: Sql, cardId: string, lock = false): Promise<WalletRow | undefined> {
  const rows = await sql.query<DbWallet>(
    `SELECT ${COLUMNS} FROM wallet_receiver.cards c JOIN wallet_receiver.wallets w ON w.id = c.wallet_id
      WHERE c.card_id = $1${lock ? " FOR UPDATE OF w" : ""}`,
    [cardId],
  );
  return rows[0] && toWallet(rows[0]);
}

export async function findWallet(sql: Sql, id: string, lock = false): Promise<WalletRow | undefined> {
  const rows = await sql.query<DbWallet>(
    `SELECT ${COLUMNS} FROM wallet_receiver.wallets w WHERE w.id = $1${lock ? " FOR UPDATE" : ""}`,
    [id],
  );
  return rows[0] && toWallet(rows[0]);
}

export async function saveWallet(
  sql: Sql,
  id: string,
  w: Pick<WalletRow, "available" | "locked" | "active" | "holderName" | "captureLimit">,
) {
  await sql.query(
    `UPDATE wallet_receiver.wallets SET available = $2, locked = $3, active = $4, holder_name = $5, capture_limit = $6, updated_at = now()
      WHERE id = $1`,
    [id, w.available, w.locked, w.active, w.holderName, w.captureLimit],
  );
}

/** Links a card to a wallet; false when the card belongs to another wallet already. */
export async function linkCard(sql: Sql, walletId: string, cardId: string): Promise<boolean> {
  const rows = await sql.query<{ wallet_id: string }>(
    `INSERT INTO wallet_receiver.cards (card_id, wallet_id) VALUES ($1, $2)
     ON CONFLICT (card_id) DO UPDATE SET card_id = EXCLUDED.card_id RETURNING wallet_id`,
    [cardId, walletId],
  );
  return rows[0]?.wallet_id === walletId;
}

export async function walletView(sql: Sql, id: string): Promise<WalletView | undefined> {
  const rows = await sql.query<DbWallet & { debited: string | number; cards: string[] | null; created_at: Date }>(
    `SELECT ${COLUMNS}, w.created_at,
            (SELECT COALESCE(SUM(l.debited), 0) FROM wallet_receiver.liens l WHERE l.wallet_id = w.id) AS debited,
            (SELECT array_agg(c.card_id ORDER BY c.linked_at, c.card_id) FROM wallet_receiver.cards c WHERE c.wallet_id = w.id) AS cards
       FROM wallet_receiver.wallets w WHERE w.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    object: "wallet",
    ...toWallet(row),
    debited: Number(row.debited),
    cards: row.cards ?? [],
    createdAt: new Date(row.created_at).toISOString(),
  };
}
