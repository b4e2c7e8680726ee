import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db, NotificationListener, Queryable, TxClient } from "@cardhold/db";
import { newMessageId } from "./message-id";
import { activeTraceHeaders, inTraceOfFirst } from "./trace-context";
import type { Bus, OutgoingMessage } from "./bus";
import { createPollingWorker } from "./polling-worker";
import { createLaneKeys, OPENS_KEY_HEADER, splitForLane, type DirectLane } from "./direct-lane";
import { outboxChannel } from "./messaging-tables";

export interface OutboxInsert {
  /** One INSERT for the whole list; it may follow a caller's WITH clauses. */
  text: string;
  values: unknown[];
  ids: string[];
  /** The rows as the relay will publish them (see handOverAfterCommit). */
  rows: OutboxRow[];
}

/**
 * The statement that adds messages to a schema's outbox, its one parameter numbered `firstParam`, for a caller that
 * writes its change and its messages in one statement. Rows keep the list's order in seq.
 *
 * The rows go as one JSON array with each value's JSON embedded as it is: as text[] parameters, node-postgres escaped
 * every quote of every value into an array literal (two regex replaces and a copy per value): ~6 % of all the
 * bytes an authorization allocated (bench/README.md, allocations). PostgreSQL's json keeps each value's text exactly.
 */
export function outboxInsert(schema: string, messages: OutgoingMessage[], firstParam = 1): OutboxInsert {
  const ids = messages.map((m) => m.id ?? newMessageId());
  // The writer's trace context rides with each row (in its headers), so the consumer's span continues this trace.
  const trace = activeTraceHeaders();
  const keysSeen = new Set<string>();
  const rows = messages.map((m, i): OutboxRow => {
    // Only a key's first message here opens it: the lane must not take a later one ahead of an earlier one's fate.
    const opens = m.opensKey === true && !keysSeen.has(m.key);
    keysSeen.add(m.key);
    return {
      id: ids[i]!,
      topic: m.topic,
      key: m.key,
      value: m.value === null ? null : JSON.stringify(m.value),
      headers: opens ? { ...trace, ...m.headers, [OPENS_KEY_HEADER]: "1" } : { ...trace, ...m.headers },
    };
  });
  const json = rows.map(
    (r) =>
      `{"id":${JSON.stringify(r.id)},"topic":${JSON.stringify(r.topic)},"key":${JSON.stringify(r.key)},` +
      `"value":${r.value ?? "null"},"headers":${JSON.stringify(r.headers)}}`,
  );
  return {
    text: `INSERT INTO ${schema}.outbox (id, topic, key, value, headers)
     SELECT m.id, m.topic, m.key, m.value::text, m.headers
       FROM ROWS FROM (json_to_recordset($${firstParam}::json) AS (id text, topic text, key text, value json, headers jsonb))
            WITH ORDINALITY AS m(id, topic, key, value, headers, n)
     ORDER BY n`,
    values: [`[${json.join(",")}]`],
    ids,
    rows,
  };
}

/** What a transaction notes for its schema's relay: the outbox rows it added, in order. */
interface CommittedRows {
  outbox: string;
  rows: OutboxRow[];
}

const isCommittedRows = (note: unknown): note is CommittedRows =>
  typeof note === "object" && note !== null && "outbox" in note && "rows" in note;

/**
 * Tells the schema's relay, once the caller's transaction commits, which rows it added to the outbox: the relay
 * publishes them without reading them back. Outside a transaction (autocommit) nothing is told; call wake().
 */
export function handOverAfterCommit(client: Queryable | TxClient, schema: string, insert: OutboxInsert): void {
  if ("afterCommit" in client) client.afterCommit({ outbox: schema, rows: insert.rows } satisfies CommittedRows);
}

/**
 * Writes messages to the service's outbox inside the caller's transaction, so the change and its messages commit
 * together (no dual writes). Returns the message ids.
 */
export async function enqueue(client: Queryable, schema: string, messages: OutgoingMessage[]): Promise<string[]> {
  if (messages.length === 0) return [];
  const insert = outboxInsert(schema, messages);
  await client.query(insert.text, insert.values);
  handOverAfterCommit(client, schema, insert);
  return insert.ids;
}

export interface OutboxRelayOptions {
  db: Db;
  schema: string;
  bus: Bus;
  logger: Logger;
  batchSize?: number;
  /** How long to sleep when the outbox is empty and nobody called wake(); published rows are deleted this often. */
  idleMs?: number;
  /**
   * With nothing published to delete, how often to read the table anyway, for rows nobody handed over (a lost commit
   * answer's, another process's); idleMs by default.
   */
  recoveryReadMs?: number;
  /** Relay lease length; with several replicas only the holder publishes. */
  leaseMs?: number;
  /** Rows of its topic go straight to their consumer where that keeps each key's order (see splitForLane). */
  directLane?: DirectLane;
}

export interface OutboxRelay {
  /**
   * Call before this process commits anything to the outbox (first in a service's start). When the bus is shared by
   * other processes and another relay holds the lease, it records this one's presence and waits until the holder has
   * surely read it (its next lease renewal, due half a lease after its last: see untilHolderRenews, at most
   * `leaseMs / 2`, nothing when the holder stopped renewing): from then on the holder reads the table before
   * publishing its own rows, so none of them overtakes a row this process committed first. Without the wait a holder
   * that did not know of this instance yet could publish its reversal from memory ahead of the approval committed
   * here. At once when this relay takes the lease, or on a bus no other process uses.
   */
  announce(): Promise<void>;
  start(): void;
  /**
   * Read the outbox now instead of at the next poll: for rows committed without a transaction of this Db telling the
   * relay (see handOverAfterCommit), or by another process.
   */
  wake(): void;
  /** Publish rows this process committed in a single statement outside a transaction (see handOverAfterCommit). */
  committed(insert: OutboxInsert): void;
  stop(): Promise<void>;
}

export interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  value: string | null;
  headers: Record<string, string>;
}

/**
 * How long a relay that announced itself waits before its process commits, given how long the holder's lease has
 * left (`expiresInMs`, renewed for `leaseMs` each time): until half a lease after the holder's last renewal, when it
 * renews before it publishes again and so reads the announcement, plus a tenth of a lease for the time between its
 * check and its publish. Never longer than half a lease (the earlier fixed wait); nothing when the holder renewed long
 * ago — a killed process, which the announcing one often replaces.
 */
export function untilHolderRenews(expiresInMs: number, leaseMs: number): number {
  return Math.min(leaseMs / 2, Math.max(0, Math.ceil(expiresInMs - leaseMs / 2 + leaseMs / 10)));
}

/** Orders rows as they stand in `rows` (commit order). */
const bySeqOf = (rows: OutboxRow[]) => {
  const place = new Map(rows.map((r, i) => [r.id, i]));
  return (a: OutboxRow, b: OutboxRow) => place.get(a.id)! - place.get(b.id)!;
};

/** How often the lease holder reads the table while other processes write the same outbox (see pollSoon). */
const SHARED_POLL_MS = 20;
/** A step renews the lease beside itself once this share of a lease is left of the time it surely holds it. */
const RENEW_AHEAD_SHARE = 0.1;

/** Past this many published rows not yet deleted, the relay reads (and deletes them) at once, not at the next poll. */
const MAX_PUBLISHED_KEPT = 2_000;

/**
 * Publishes the outbox to the bus in commit order and deletes what it published; at-least-once. Rows that a
 * transaction of this process handed over (handOverAfterCommit) are published from memory right after their commit;
 * the table is read once per `idleMs` (rows of a crashed run or of another process), on wake(), and before anything
 * else while a read finds more than a batch or rows nobody handed over. Per-key order holds because a key's rows come
 * from transactions that lock the same resource one after the other: in this process they are handed over in that
 * order, and read back from the table they come in seq order. With several processes writing one schema, only the
 * lease holder publishes, and while it knows of another relay (see holdLease) it publishes only what it reads from the
 * table, in seq order: a row handed over after a read began may be the next step of a resource whose earlier step
 * another process committed after that read, and goes out with the next read, behind it. It learns
 * of a new relay when it next renews its lease (within `leaseMs / 2`); a new instance announces itself and waits that
 * long before it commits anything (announce), so no step of its can be overtaken. While shared, the holder also
 * reads the table every SHARED_POLL_MS, so the other processes' rows wait milliseconds for it, not `idleMs`.
 * After any failure (the database or the broker away), after a commit whose answer was lost (Db.onCommitUnknown:
 * its rows are in the table or nowhere), and for a lease length after a gap in its renewals (the other relays' stamps
 * may have lapsed during an outage while they live on), it reads the table before publishing from memory.
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { db, schema, bus, logger } = opts;
  const batchSize = opts.batchSize ?? 200;
  const idleMs = opts.idleMs ?? 500;
  const recoveryReadMs = opts.recoveryReadMs ?? idleMs;
  const leaseMs = opts.leaseMs ?? 5_000;
  const owner = randomUUID();
  /** Keys whose rows all went by the direct lane while this relay held the lease (see splitForLane). */
  const laneKeys = createLaneKeys();
  /** Until when (local clock) this relay surely holds the lease: renewing it on every batch would cost a commit each. */
  let leaseSafeUntil = 0;
  /** Another relay of this schema was seen lately: other processes commit rows here too (see holdLease). */
  let shared = false;
  /** When this relay last renewed (or took) the lease, by the local clock; 0 before it ever held it. */
  let lastRenewedAt = 0;
  /** Until when to act as shared whatever the lease row says (after a gap in renewals, see holdLease). */
  let assumeSharedUntil = 0;

  /** Whether this relay holds the lease now: at once while it surely does, else after a renewal. */
  const holdLease = async () => {
    if (Date.now() < leaseSafeUntil) {
      if (Date.now() >= leaseSafeUntil - leaseMs * RENEW_AHEAD_SHARE) renewAhead();
      return true;
    }
    await renewing;
    if (Date.now() < leaseSafeUntil) return true;
    return renewLease();
  };

  /** A renewal started ahead of need, while the lease is still surely held (see renewAhead). */
  let renewing: Promise<unknown> | undefined;
  /**
   * Renews the lease beside the step instead of inside it: a step that had to renew first made the rows it carried wait
   * for a commit, one step every half lease (and on a slow disk that commit can take 50-200 ms). What this relay may
   * publish from memory still depends only on renewals that have ended (leaseSafeUntil moves when one ends), so another
   * relay's stamp is honoured as before. A failure here is left to the step that next needs the lease, which renews
   * itself and reports it.
   */
  const renewAhead = () => {
    if (renewing) return;
    renewing = renewLease()
      .catch(() => undefined)
      .finally(() => (renewing = undefined));
  };

  /**
   * Takes or renews the lease. A relay that finds it held by another stamps `others_until`, at most once per lease
   * length, and the holder reads that stamp when it renews: while other processes write this outbox, the holder reads
   * the table before publishing anything from memory, so a row one of them committed before a later step of the same
   * resource here is published first (a reversal applied here must not overtake the approval another engine committed).
   */
  const renewLease = async () => {
    const renewedAt = Date.now();
    const { rows } = await db.query<{ held: boolean; shared: boolean }>(
      `INSERT INTO ${schema}.outbox_relay_lease AS l (name, owner, expires_at)
       VALUES ('relay', $1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET
         owner = CASE WHEN l.owner = $1 OR l.expires_at < now() THEN $1 ELSE l.owner END,
         expires_at = CASE WHEN l.owner = $1 OR l.expires_at < now() THEN EXCLUDED.expires_at ELSE l.expires_at END,
         others_until = CASE WHEN l.owner = $1 THEN l.others_until ELSE now() + 2 * $2 * interval '1 millisecond' END
       WHERE l.owner = $1 OR l.expires_at < now() OR l.others_until < now() + $2 * interval '1 millisecond'
       RETURNING l.owner = $1 AS held, l.others_until > now() AS shared`,
      [owner, leaseMs],
    );
    const held = rows[0]?.held === true;
    // Other relays stamp their presence while they can reach the database. After a gap in this relay's renewals (a
    // database outage, a stalled process) the stamp may have lapsed while they live on and commit: until they have had
    // time to stamp again, act as shared (read the table before publishing) rather than trust the lapsed stamp.
    const gap = lastRenewedAt === 0 || renewedAt - lastRenewedAt > leaseMs;
    if (held && lastRenewedAt > 0 && renewedAt - lastRenewedAt > leaseMs) assumeSharedUntil = renewedAt + leaseMs;
    // Another holder may have sent a key's rows on the bus meanwhile: what this relay knew of the lane is void.
    if (!held || gap) laneKeys.clear();
    shared = held && (rows[0]!.shared || renewedAt < assumeSharedUntil);
    lastRenewedAt = held ? renewedAt : 0;
    leaseSafeUntil = held ? renewedAt + leaseMs / 2 : 0;
    return held;
  };

  /** How long the lease has left by the database's clock (the holder's renewals are stamped by it too). */
  const leaseExpiresInMs = async () => {
    const { rows } = await db.query<{ expires_in_ms: number }>(
      `SELECT (extract(epoch FROM expires_at - now()) * 1000)::float8 AS expires_in_ms
         FROM ${schema}.outbox_relay_lease WHERE name = 'relay'`,
    );
    return rows[0]?.expires_in_ms ?? leaseMs;
  };

  /** Rows committed by this process and handed over, not yet published. */
  let handedOver: OutboxRow[] = [];
  /** Read the table before publishing what was handed over: at start, on wake(), after a failure, behind a full read. */
  let readFirst = true;
  let lastRead = 0;
  /**
   * Ids published but not yet deleted: the delete rides on the next read (one statement per poll instead of one per
   * batch). Losing it in a crash only publishes the rows again, which consumers ignore (their inbox, or handling that
   * is idempotent by itself): bookkeeping, no need to wait for the disk.
   */
  let publishedKept: string[] = [];

  const deleteAndRead = async () => {
    // The SELECT sees the table as it was before the DELETE (one snapshot per statement): it skips those rows itself.
    const { rows } = await db.bookkeeping<OutboxRow & Record<string, unknown>>(
      `WITH published AS (DELETE FROM ${schema}.outbox WHERE id = ANY($2::text[]))
       SELECT id, topic, key, value, headers FROM ${schema}.outbox
        WHERE id <> ALL($2::text[]) ORDER BY seq LIMIT $1`,
      [batchSize, publishedKept],
    );
    publishedKept = [];
    return rows;
  };

  const toBus = async (rows: OutboxRow[]) => {
    if (rows.length === 0) return;
    await bus.publish(
      rows.map((r) => ({
        id: r.id,
        topic: r.topic,
        key: r.key,
        value: r.value === null ? null : JSON.parse(r.value),
        headers: r.headers,
      })),
    );
  };

  /**
   * The lane's rows are posted while the bus takes the rows that share no key with them; a row behind a posted one of
   * its key, and every posted row the lane did not take, go on the bus once the post has ended.
   */
  const sendBy = async (lane: DirectLane, rows: OutboxRow[]) => {
    const split = splitForLane(rows, lane.topic, laneKeys);
    const posted = async () => {
      if (split.lane.length === 0) return true;
      const traces = split.lane.map((r) => r.headers);
      const taken = await inTraceOfFirst(traces, () => lane.post(split.lane)).catch((err: unknown) => {
        logger.warn({ err }, "direct lane post failed; its rows go on the bus");
        return false;
      });
      for (const r of split.lane) {
        if (taken) laneKeys.add(r.key);
        else laneKeys.delete(r.key);
      }
      return taken;
    };
    for (const r of [...split.bus, ...split.after]) if (r.topic === lane.topic) laneKeys.delete(r.key);
    // Both end before anything else happens: a failed publish must not leave a post running into the next step.
    const [post, others] = await Promise.allSettled([posted(), toBus(split.bus)]);
    if (others.status === "rejected") throw others.reason;
    const taken = post.status === "fulfilled" && post.value;
    await toBus(taken ? split.after : [...split.lane, ...split.after].sort(bySeqOf(rows)));
  };

  const publish = async (rows: OutboxRow[]) => {
    try {
      await (opts.directLane ? sendBy(opts.directLane, rows) : toBus(rows));
    } catch (error) {
      // Still unpublished in the table: read them back there, in commit order, with whatever came after them.
      handedOver = [];
      readFirst = true;
      throw error;
    }
    for (const r of rows) publishedKept.push(r.id);
  };

  /** Publishes a batch read from the table; true when the table may hold more. */
  const readAndPublish = async () => {
    lastRead = Date.now();
    const handedBefore = new Set(handedOver.map((r) => r.id));
    const rows = await deleteAndRead();
    const full = rows.length === batchSize;
    const mine = new Set(handedOver.map((r) => r.id));
    const foreign = rows.some((r) => !mine.has(r.id));
    const read = new Set(rows.map((r) => r.id));
    // Committed before the read began and not in it (it read the whole table): another holder published them.
    handedOver = handedOver.filter((r) => !read.has(r.id) && (full || !handedBefore.has(r.id)));
    if (rows.length > 0) await publish(rows);
    // Rows nobody handed over (another process's, or written outside a transaction): keep reading before publishing
    // from memory until a read finds none, so theirs keep their place in commit order.
    readFirst = full || foreign;
    return full;
  };

  /**
   * Any failure (the lease, the read, the publish) makes the next step read the table first: a transaction that
   * committed around the failure may have rows there that nobody handed over (its commit's answer was lost).
   */
  const publishBatch = async (): Promise<boolean> => {
    try {
      return await publishNext();
    } catch (error) {
      readFirst = true;
      throw error;
    }
  };

  const publishNext = async (): Promise<boolean> => {
    if (!(await holdLease())) {
      handedOver = []; // the holder reads them from the table
      hearOthers(false);
      return false;
    }
    hearOthers(shared);
    const sinceRead = Date.now() - lastRead;
    const readDue =
      readFirst ||
      shared ||
      sinceRead >= (publishedKept.length > 0 ? idleMs : recoveryReadMs) ||
      publishedKept.length >= MAX_PUBLISHED_KEPT;
    if (readDue && (await readAndPublish())) return true;
    // Shared: what was handed over since the read's snapshot may be the later step of a resource whose earlier step
    // another process committed after that snapshot (a publish of what was read can hang for seconds while the broker
    // is away). Read it back from the table, in commit order, at once; never publish it from memory.
    if (shared) {
      if (!othersHeard?.listening()) pollSoon(SHARED_POLL_MS);
      return handedOver.length > 0;
    }
    if (handedOver.length === 0) return false;
    await publish(handedOver.splice(0, batchSize));
    return handedOver.length > 0;
  };

  const deletePublished = async () => {
    if (publishedKept.length === 0) return;
    await db.bookkeeping(`DELETE FROM ${schema}.outbox WHERE id = ANY($1::text[])`, [publishedKept]);
    publishedKept = [];
  };

  const worker = createPollingWorker({
    name: `outbox relay (${schema})`,
    logger,
    // Nothing published to delete: no reason to look before the next recovery read, unless woken.
    idleMs: () => (publishedKept.length > 0 ? idleMs : recoveryReadMs),
    step: publishBatch,
  });

  /**
   * While other processes write this outbox, the rows they commit wait for this relay's next read: read again after
   * SHARED_POLL_MS rather than `idleMs`, or a decision request committed by another engine would wait up to 500 ms.
   */
  let pollTimer: NodeJS.Timeout | undefined;
  const pollSoon = (ms: number) => {
    if (pollTimer) return;
    pollTimer = setTimeout(() => {
      pollTimer = undefined;
      worker.wake();
    }, ms);
    pollTimer.unref();
  };

  /**
   * While shared, and where every instance's commits NOTIFY (DbOptions.notifyOutbox), the holder listens for them
   * instead of reading every SHARED_POLL_MS: an idle platform's holders read twice a second, not fifty times, and a
   * row another process commits is read at once, or SHARED_POLL_MS after the last read under load (reads keep their
   * spacing). While the LISTEN is down (the listener calls back when it is lost), the poll goes on as before.
   */
  let othersHeard: NotificationListener | undefined;
  const hearOthers = (on: boolean) => {
    if (on && !othersHeard && db.notifiesOutbox && db.listen) {
      othersHeard = db.listen(outboxChannel(schema), () =>
        pollSoon(Math.max(0, lastRead + SHARED_POLL_MS - Date.now())),
      );
    } else if (!on && othersHeard) {
      void othersHeard.close();
      othersHeard = undefined;
    }
  };

  const take = (rows: OutboxRow[]) => {
    handedOver.push(...rows);
    worker.wake();
  };
  let stopListening = () => undefined as void;

  const relay: OutboxRelay = {
    async announce() {
      if (!bus.crossProcess || (await holdLease())) return;
      // holdLease stamped others_until (the lease is another's); the holder reads it when it renews.
      const waitMs = untilHolderRenews(await leaseExpiresInMs(), leaseMs);
      await new Promise((r) => setTimeout(r, waitMs));
    },
    start() {
      const ours = (note: unknown): note is CommittedRows => isCommittedRows(note) && note.outbox === schema;
      const stopCommitted = db.onCommit((notes) => {
        for (const note of notes) if (ours(note)) take(note.rows);
      });
      // Rows of a commit whose answer was lost are in the table or nowhere: read it before publishing anything later.
      const stopUnknown = db.onCommitUnknown((notes) => {
        if (notes.some(ours)) relay.wake();
      });
      stopListening = () => {
        stopCommitted();
        stopUnknown();
      };
      worker.start();
    },
    wake() {
      readFirst = true;
      worker.wake();
    },
    committed: (insert) => take(insert.rows),
    async stop() {
      stopListening();
      hearOthers(false);
      clearTimeout(pollTimer);
      await worker.stop();
      await deletePublished().catch(() => undefined);
      await renewing; // or it could extend the lease after the hand-over below
      leaseSafeUntil = 0;
      // Hand the lease over at once instead of letting a successor wait for it to expire.
      await db
        .query(`DELETE FROM ${schema}.outbox_relay_lease WHERE name = 'relay' AND owner = $1`, [owner])
        .catch(() => undefined);
    },
  };
  return relay;
}
