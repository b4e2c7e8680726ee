import type { Mode } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import type { Permission } from "../domain/permissions";

export interface NewConsoleSession {
  idHash: string;
  keyId: string;
  businessId: string;
  mode: Mode;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** A session with what its key says now: revoked_at set means the key was revoked since sign-in. */
export interface ConsoleSessionRow {
  key_id: string;
  business_id: string;
  business_name: string;
  mode: Mode;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  permissions: Permission[] | null;
  delayed_requests: boolean;
  key_revoked_at: Date | null;
}

export async function insertConsoleSession(db: Queryable, s: NewConsoleSession): Promise<void> {
  await db.query(
    `INSERT INTO gateway.console_sessions
       (id_hash, key_id, business_id, mode, csrf_token, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [s.idHash, s.keyId, s.businessId, s.mode, s.csrfToken, s.createdAt, s.lastSeenAt, s.expiresAt],
  );
}

/** The session and its key's current permissions, in one statement on two primary keys. */
export async function findConsoleSession(db: Queryable, idHash: string): Promise<ConsoleSessionRow | undefined> {
  const { rows } = await db.query<ConsoleSessionRow & Record<string, unknown>>(
    `SELECT s.key_id, s.business_id, b.name AS business_name, s.mode, s.csrf_token, s.created_at, s.last_seen_at,
            s.expires_at, k.permissions, k.delayed_requests, k.revoked_at AS key_revoked_at
       FROM gateway.console_sessions s
       JOIN gateway.api_keys k ON k.id = s.key_id
       JOIN gateway.businesses b ON b.id = s.business_id
      WHERE s.id_hash = $1`,
    [idHash],
  );
  return rows[0];
}

/** Moves last_seen_at forward (never back: two gateway instances may touch the same session). */
export async function touchConsoleSession(db: Queryable, idHash: string, at: Date): Promise<void> {
  await db.query("UPDATE gateway.console_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND last_seen_at < $2", [
    idHash,
    at,
  ]);
}

export async function deleteConsoleSession(db: Queryable, idHash: string): Promise<void> {
  await db.query("DELETE FROM gateway.console_sessions WHERE id_hash = $1", [idHash]);
}

/** Drops sessions past their absolute limit (idle ones go when they are next presented, or then). */
export async function deleteExpiredConsoleSessions(db: Queryable, now: Date): Promise<void> {
  await db.query("DELETE FROM gateway.console_sessions WHERE expires_at <= $1", [now]);
}

export async function findBusinessName(db: Queryable, businessId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ name: string }>("SELECT name FROM gateway.businesses WHERE id = $1", [businessId]);
  return rows[0]?.name;
}
