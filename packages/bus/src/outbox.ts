import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db, Queryable } from "@cardhold/db";
import { newMessageId } from "./message-id";
import type { Bus, OutgoingMessage } from "./bus";
import { createPollingWorker } from "./polling-worker";

export interface OutboxInsert {
  /** One INSERT for the whole list; it may follow a caller's WITH clauses. */
  text: string;
  values: unknown[];
  ids: string[];
}

/**
 * The statement that adds messages to a schema's outbox, its parameters numbered from `firstParam`, for a caller that
 * writes its change and its messages in one statement. Rows keep the list's order in seq (unnest keeps array order).
 */
export function outboxInsert(schema: string, messages: OutgoingMessage[], firstParam = 1): OutboxInsert {
  const ids = messages.map((m) => m.id ?? newMessageId());
  const [a, b, c, d, e] = [0, 1, 2, 3, 4].map((i) => `$${firstParam + i}`);
  return {
    text: `INSERT INTO ${schema}.outbox (id, topic, key, value, headers)
     SELECT m.id, m.topic, m.key, m.value, m.headers
       FROM unnest(${a}::text[], ${b}::text[], ${c}::text[], ${d}::text[], ${e}::jsonb[]) WITH ORDINALITY AS m(id, topic, key, value, headers, n)
     ORDER BY n`,
    values: [ids, messages.map((m) => m.topic), messages.map((m) => m.key), messages.map((m) => (m.value === null ? null : JSON.stringify(m.value))),
      messages.map((m) => JSON.stringify(m.headers ?? {}))],
    ids,
  };
}

/**
 * Writes messages to the service's outbox inside the caller's transaction, so the change and its messages commit
 * together (no dual writes). Returns the message ids.
 */
export async function enqueue(client: Queryable, schema: string, messages: OutgoingMessage[]): Promise<string[]> {
  if (messages.length === 0) return [];
  const insert = outboxInsert(schema, messages);
  await client.query(insert.text, insert.values);
  return insert.ids;
}

export interface OutboxRelayOptions {
  db: Db;
  schema: string;
  bus: Bus;
  logger: Logger;
  batchSize?: number;
  /** How long to sleep when the outbox is empty and nobody called wake(). */
  idleMs?: number;
  /** Relay lease length; with several replicas only the holder publishes. */
  leaseMs?: number;
}

export interface OutboxRelay {
  start(): void;
  /** Publish now instead of at the next poll (call right after a commit). */
  wake(): void;
  stop(): Promise<void>;
}

interface OutboxRow {
  seq: number;
  id: string;
  topic: string;
  key: string;
  value: string | null;
  headers: Record<string, string>;
}

/** Publishes the outbox to the bus in commit order and marks rows published; at-least-once. */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { db, schema, bus, logger } = opts;
  const batchSize = opts.batchSize ?? 200;
  const idleMs = opts.idleMs ?? 500;
  const leaseMs = opts.leaseMs ?? 5_000;
  const owner = randomUUID();
  let lastPrune = 0;
  /** Until when (local clock) this relay surely holds the lease: renewing it on every batch would cost a commit each. */
  let leaseSafeUntil = 0;

  const holdLease = async () => {
    if (Date.now() < leaseSafeUntil) return true;
    const renewedAt = Date.now();
    const { rowCount } = await db.query(
      `INSERT INTO ${schema}.outbox_relay_lease (name, owner, expires_at)
       VALUES ('relay', $1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET owner = $1, expires_at = EXCLUDED.expires_at
       WHERE ${schema}.outbox_relay_lease.owner = $1 OR ${schema}.outbox_relay_lease.expires_at < now()`,
      [owner, leaseMs],
    );
    leaseSafeUntil = rowCount === 1 ? renewedAt + leaseMs / 2 : 0;
    return rowCount === 1;
  };

  /**
   * Rows published but not yet marked: the mark rides on the next cycle's read (one statement per cycle instead of
   * two), or on the idle poll. Losing it in a crash only publishes the rows again, which consumers ignore (their
   * inbox, or handling that is idempotent by itself): bookkeeping, no need to wait for the disk.
   */
  let unmarked: number[] = [];

  const markAndRead = async () => {
    const { rows } = await db.bookkeeping<OutboxRow & Record<string, unknown>>(
      `WITH marked AS (UPDATE ${schema}.outbox SET published_at = now() WHERE seq = ANY($2::bigint[]))
       SELECT seq, id, topic, key, value, headers FROM ${schema}.outbox
        WHERE published_at IS NULL AND seq <> ALL($2::bigint[]) ORDER BY seq LIMIT $1`,
      [batchSize, unmarked],
    );
    unmarked = [];
    return rows;
  };

  const publishBatch = async (): Promise<boolean> => {
    if (!(await holdLease())) return false;
    const rows = await markAndRead();
    if (rows.length === 0) return false;
    await bus.publish(
      rows.map((r) => ({
        id: r.id,
        topic: r.topic,
        key: r.key,
        value: r.value === null ? null : JSON.parse(r.value),
        headers: r.headers,
      })),
    );
    unmarked = rows.map((r) => r.seq);
    return rows.length === batchSize;
  };

  const markPublished = async () => {
    if (unmarked.length === 0) return;
    await db.bookkeeping(`UPDATE ${schema}.outbox SET published_at = now() WHERE seq = ANY($1::bigint[])`, [unmarked]);
    unmarked = [];
  };

  const prune = async () => {
    if (Date.now() - lastPrune < 60_000) return;
    lastPrune = Date.now();
    await db.query(`DELETE FROM ${schema}.outbox WHERE published_at < now() - interval '1 day'`);
  };

  const worker = createPollingWorker({
    name: `outbox relay (${schema})`,
    logger,
    idleMs,
    step: async () => {
      const more = await publishBatch();
      await prune();
      return more;
    },
  });

  return {
    start: worker.start,
    wake: worker.wake,
    async stop() {
      await worker.stop();
      await markPublished().catch(() => undefined);
      leaseSafeUntil = 0;
      // Hand the lease over at once instead of letting a successor wait for it to expire.
      await db
        .query(`DELETE FROM ${schema}.outbox_relay_lease WHERE name = 'relay' AND owner = $1`, [owner])
        .catch(() => undefined);
    },
  };
}
