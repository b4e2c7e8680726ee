import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db, Queryable } from "@cardhold/db";
import { newMessageId } from "./message-id";
import type { Bus, OutgoingMessage } from "./bus";
import { createPollingWorker } from "./polling-worker";

/**
 * Writes messages to the service's outbox inside the caller's transaction, so the change and its messages commit
 * together (no dual writes). Returns the message ids.
 */
export async function enqueue(client: Queryable, schema: string, messages: OutgoingMessage[]): Promise<string[]> {
  if (messages.length === 0) return [];
  const ids = messages.map((m) => m.id ?? newMessageId());
  // One statement for the whole list: rows keep the list's order in seq (unnest keeps array order).
  await client.query(
    `INSERT INTO ${schema}.outbox (id, topic, key, value, headers)
     SELECT m.id, m.topic, m.key, m.value, m.headers
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS m(id, topic, key, value, headers, n)
     ORDER BY n`,
    [ids, messages.map((m) => m.topic), messages.map((m) => m.key), messages.map((m) => (m.value === null ? null : JSON.stringify(m.value))),
      messages.map((m) => JSON.stringify(m.headers ?? {}))],
  );
  return ids;
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

  const publishBatch = async (): Promise<boolean> => {
    if (!(await holdLease())) return false;
    const { rows } = await db.query<OutboxRow & Record<string, unknown>>(
      `SELECT seq, id, topic, key, value, headers FROM ${schema}.outbox
       WHERE published_at IS NULL ORDER BY seq LIMIT $1`,
      [batchSize],
    );
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
    // Losing this mark in a crash only publishes the rows again, which consumers ignore (their inbox, or handling that
    // is idempotent by itself): no need to wait for the disk.
    await db.bookkeeping(`UPDATE ${schema}.outbox SET published_at = now() WHERE seq = ANY($1::bigint[])`, [rows.map((r) => r.seq)]);
    return rows.length === batchSize;
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
      leaseSafeUntil = 0;
      // Hand the lease over at once instead of letting a successor wait for it to expire.
      await db
        .query(`DELETE FROM ${schema}.outbox_relay_lease WHERE name = 'relay' AND owner = $1`, [owner])
        .catch(() => undefined);
    },
  };
}
