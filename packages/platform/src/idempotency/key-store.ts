import type { Db, Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

/** A key stays bound to its first request for this long. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface KeyedRequest {
  schema: string;
  scope: Scope;
  key: string;
  /** Method, path and body: a repeat must match it. */
  fingerprint: string;
}

export interface Answer {
  status: number;
  body: string;
}

export type ClaimOutcome =
  | { kind: "run"; claim: string; prior: unknown }
  | { kind: "replay"; answer: Answer }
  | { kind: "mismatch" }
  | { kind: "in-progress"; retryAfterMs: number };

interface KeyRow {
  fingerprint: string;
  created_at: Date;
  claimed_until: Date | null;
  effect: unknown;
  answer_status: number | null;
  answer_body: string | null;
}

const WHERE_KEY = "business_id = $1 AND mode = $2 AND key = $3";
const keyParams = (r: KeyedRequest) => [r.scope.businessId, r.scope.mode, r.key];

/**
 * Takes the key for this request, or says why not. The claim is committed on its own, before the work, so a repeat
 * sees it (409 while it lasts); the work's own transaction then records its answer (or effect) under that claim.
 */
export function claimKey(db: Db, r: KeyedRequest, claim: string, now: number, leaseMs: number) {
  return db.tx<ClaimOutcome>(async (tx) => {
    const until = new Date(now + leaseMs);
    const fresh = await tx.query(
      `INSERT INTO ${r.schema}.idempotency_keys (business_id, mode, key, fingerprint, created_at, claim, claimed_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [...keyParams(r), r.fingerprint, new Date(now), claim, until],
    );
    if (fresh.rowCount) return { kind: "run", claim, prior: null };
    const { rows } = await tx.query<KeyRow & Record<string, unknown>>(
      `SELECT fingerprint, created_at, claimed_until, effect, answer_status, answer_body
       FROM ${r.schema}.idempotency_keys WHERE ${WHERE_KEY} FOR UPDATE`,
      keyParams(r),
    );
    const row = rows[0]!;
    if (row.created_at.getTime() <= now - KEY_LIFETIME_MS) {
      await tx.query(
        `UPDATE ${r.schema}.idempotency_keys SET fingerprint = $4, created_at = $5, claim = $6, claimed_until = $7,
           effect = NULL, answer_status = NULL, answer_body = NULL WHERE ${WHERE_KEY}`,
        [...keyParams(r), r.fingerprint, new Date(now), claim, until],
      );
      return { kind: "run", claim, prior: null };
    }
    if (row.fingerprint !== r.fingerprint) return { kind: "mismatch" };
    if (row.answer_status !== null)
      return { kind: "replay", answer: { status: row.answer_status, body: row.answer_body! } };
    if (row.claimed_until && row.claimed_until.getTime() > now)
      return { kind: "in-progress", retryAfterMs: row.claimed_until.getTime() - now };
    // The request that held the key ended without an answer (its process died): this one takes over.
    await tx.query(`UPDATE ${r.schema}.idempotency_keys SET claim = $4, claimed_until = $5 WHERE ${WHERE_KEY}`, [
      ...keyParams(r),
      claim,
      until,
    ]);
    return { kind: "run", claim, prior: row.effect };
  });
}

/** The request is still running: keeps its claim on the key a while longer. */
export async function renewClaim(db: Db, r: KeyedRequest, claim: string, until: Date): Promise<void> {
  await db.query(`UPDATE ${r.schema}.idempotency_keys SET claimed_until = $5 WHERE ${WHERE_KEY} AND claim = $4`, [
    ...keyParams(r),
    claim,
    until,
  ]);
}

/** Inside the work's transaction: writes `set` under this request's claim; false when another request took it over. */
export async function writeUnderClaim(
  tx: Queryable,
  r: KeyedRequest,
  claim: string,
  set: "answer" | "effect",
  values: unknown[],
): Promise<boolean> {
  const assignment = set === "answer" ? "answer_status = $5, answer_body = $6" : "effect = $5";
  const { rowCount } = await tx.query(
    `UPDATE ${r.schema}.idempotency_keys SET ${assignment} WHERE ${WHERE_KEY} AND claim = $4`,
    [...keyParams(r), claim, ...values],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * The request is over: keeps the answer recorded with its effect, else `answer` (none for a 5xx), and lets go of the
 * key. Returns what the key now answers; undefined when it answers nothing (released for a retry, or taken over).
 */
export async function settleKey(
  db: Db,
  r: KeyedRequest,
  claim: string,
  answer: Answer | undefined,
): Promise<Answer | undefined> {
  const { rows } = await db.query<{ answer_status: number; answer_body: string }>(
    `UPDATE ${r.schema}.idempotency_keys
     SET answer_status = COALESCE(answer_status, $5), answer_body = COALESCE(answer_body, $6), claim = NULL
     WHERE ${WHERE_KEY} AND claim = $4 AND (answer_status IS NOT NULL OR $5::integer IS NOT NULL)
     RETURNING answer_status, answer_body`,
    [...keyParams(r), claim, answer?.status ?? null, answer?.body ?? null],
  );
  if (rows[0]) return { status: rows[0].answer_status, body: rows[0].answer_body };
  // No answer to keep: a key with no effect is forgotten; one with an effect waits for a retry to rebuild its answer.
  await db.query(`DELETE FROM ${r.schema}.idempotency_keys WHERE ${WHERE_KEY} AND claim = $4 AND effect IS NULL`, [
    ...keyParams(r),
    claim,
  ]);
  await db.query(
    `UPDATE ${r.schema}.idempotency_keys SET claim = NULL, claimed_until = NULL WHERE ${WHERE_KEY} AND claim = $4`,
    [...keyParams(r), claim],
  );
  return undefined;
}

/** Forgets keys past their lifetime (bookkeeping: losing it only delays the cleanup). */
export async function pruneKeys(db: Db, schema: string, now: number): Promise<void> {
  await db.bookkeeping(`DELETE FROM ${schema}.idempotency_keys WHERE created_at <= $1`, [
    new Date(now - KEY_LIFETIME_MS),
  ]);
}
