import type { Database } from "./database.js";

/**
 * The wallet app's tables, created when missing. Balances are integer minor units (int8); the CHECKs are the last
 * line against overspending: a transaction that would take `available` below zero fails instead.
 */
const STATEMENTS = [
  "CREATE SCHEMA IF NOT EXISTS wallet_receiver",
  `CREATE TABLE IF NOT EXISTS wallet_receiver.wallets (
     id text PRIMARY KEY,
     holder_name text NOT NULL,
     active boolean NOT NULL DEFAULT true,
     available int8 NOT NULL CHECK (available >= 0),
     locked int8 NOT NULL DEFAULT 0 CHECK (locked >= 0),
     capture_limit int8 CHECK (capture_limit > 0),
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS wallet_receiver.cards (
     card_id text PRIMARY KEY,
     wallet_id text NOT NULL REFERENCES wallet_receiver.wallets (id),
     linked_at timestamptz NOT NULL DEFAULT now())`,
  "CREATE INDEX IF NOT EXISTS cards_by_wallet ON wallet_receiver.cards (wallet_id)",
  // One lien per approved capture: what is still locked for it and what was debited for it.
  `CREATE TABLE IF NOT EXISTS wallet_receiver.liens (
     authorization_id text PRIMARY KEY,
     wallet_id text NOT NULL REFERENCES wallet_receiver.wallets (id),
     card_id text NOT NULL,
     locked int8 NOT NULL CHECK (locked >= 0),
     debited int8 NOT NULL CHECK (debited >= 0),
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now())`,
  "CREATE INDEX IF NOT EXISTS liens_by_wallet ON wallet_receiver.liens (wallet_id)",
  // Duplicate tracking (the DeliveryStore): every event id with the answer given, every authorization captured.
  `CREATE TABLE IF NOT EXISTS wallet_receiver.deliveries (
     event_id text PRIMARY KEY,
     answer jsonb,
     received_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS wallet_receiver.capture_claims (
     authorization_id text PRIMARY KEY,
     claimed_at timestamptz NOT NULL DEFAULT now())`,
  // When the platform made the latest closed event handled for the authorization: an amount change made before it
  // was decided without this receiver and changes nothing. Added later, hence apart.
  "ALTER TABLE wallet_receiver.capture_claims ADD COLUMN IF NOT EXISTS closed_at timestamptz",
  `CREATE TABLE IF NOT EXISTS wallet_receiver.card_transactions (
     id text PRIMARY KEY,
     authorization_id text NOT NULL,
     card_id text NOT NULL,
     amount int8 NOT NULL,
     fees int8 NOT NULL,
     currency text NOT NULL,
     created_at timestamptz NOT NULL,
     received_at timestamptz NOT NULL DEFAULT now())`,
];

export async function createSchema(db: Database): Promise<void> {
  await db.transaction(async (sql) => {
    for (const statement of STATEMENTS) await sql.query(statement);
  });
}
