import type { Queryable } from "@cardhold/db";

/** Past this many rows the backlog is reported as this many: the count stays one bounded index scan. */
export const OUTBOX_BACKLOG_CAP = 100_000;

export interface OutboxBacklog {
  /** Rows in the outbox, at most OUTBOX_BACKLOG_CAP. */
  messages: number;
  /** How long ago the oldest row was committed (the database's clock); 0 when the outbox is empty. */
  oldestAgeSeconds: number;
}

/**
 * The schema's outbox rows not yet deleted: those not published, and those the relay published within its last poll
 * (it deletes them with its next read, every half second or past 2,000 rows; outbox.ts). Two index reads (outbox_in_order).
 */
export async function readOutboxBacklog(db: Queryable, schema: string): Promise<OutboxBacklog> {
  const { rows } = await db.query<{ messages: number; oldest_age_seconds: number }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM ${schema}.outbox LIMIT ${OUTBOX_BACKLOG_CAP}) capped)::int AS messages,
            COALESCE(extract(epoch FROM clock_timestamp() - (SELECT created_at FROM ${schema}.outbox ORDER BY seq LIMIT 1)), 0)::float8
              AS oldest_age_seconds`,
  );
  return { messages: rows[0]?.messages ?? 0, oldestAgeSeconds: Math.max(0, rows[0]?.oldest_age_seconds ?? 0) };
}
