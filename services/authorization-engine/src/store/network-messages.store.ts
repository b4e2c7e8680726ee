/** engine.network_messages (migration 012): what the ISO 8583 interface answered each message, for its repeats. */
import type { Db, Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

/** The key a message and its repeats share within a business and mode. */
export interface NetworkMessageKey {
  messageClass: string;
  terminalId: string;
  rrn: string;
  stan: string;
}

export interface NetworkMessageRecord<Answer> {
  key: NetworkMessageKey;
  mti: string;
  cardId: string;
  authorizationId: string | null;
  /** What the message asked, the PAN masked. */
  request: Record<string, unknown>;
  response: Answer;
  receivedAt: Date;
}

const KEY_MATCH =
  "business_id = $1 AND mode = $2 AND message_class = $3 AND terminal_id = $4 AND rrn = $5 AND stan = $6";
const keyValues = (scope: Scope, key: NetworkMessageKey) => [
  scope.businessId,
  scope.mode,
  key.messageClass,
  key.terminalId,
  key.rrn,
  key.stan,
];

/** The answer given to this message before, if it was answered. */
async function findAnswer<Answer>(db: Queryable, scope: Scope, key: NetworkMessageKey): Promise<Answer | undefined> {
  const { rows } = await db.query<{ response: Answer }>(
    `SELECT response FROM engine.network_messages WHERE ${KEY_MATCH}`,
    keyValues(scope, key),
  );
  return rows[0]?.response;
}

/**
 * Records the answer to a message; when the same message was answered first (a duplicate under way at the same time),
 * that answer stands and is returned instead. Committed without waiting for the disk (Db.bookkeeping): the answer
 * goes out sooner, and a record a crash loses only makes a later repeat be carried out again, which charges nothing
 * twice (the authorization's network reference is unique per card) and refuses what it refused before.
 */
export async function recordAnswer<Answer>(
  db: Db,
  scope: Scope,
  record: NetworkMessageRecord<Answer>,
): Promise<Answer> {
  const { rows } = await db.bookkeeping<{ response: Answer }>(
    `INSERT INTO engine.network_messages (business_id, mode, message_class, terminal_id, rrn, stan, mti, card_id,
       authorization_id, request, response, received_at, answered_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
     ON CONFLICT DO NOTHING RETURNING response`,
    [
      ...keyValues(scope, record.key),
      record.mti,
      record.cardId,
      record.authorizationId,
      record.request,
      record.response,
      record.receivedAt,
    ],
  );
  return rows[0]?.response ?? (await findAnswer<Answer>(db, scope, record.key)) ?? record.response;
}

/**
 * Deletes at most `limit` of the oldest messages received before `before`; returns how many. Bookkeeping: a delete a
 * crash loses is done again at the next pass.
 */
export async function deleteMessagesReceivedBefore(db: Db, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.bookkeeping(
    `DELETE FROM engine.network_messages WHERE ctid IN (
       SELECT ctid FROM engine.network_messages WHERE received_at < $1 ORDER BY received_at LIMIT $2)`,
    [before, limit],
  );
  return rowCount ?? 0;
}
