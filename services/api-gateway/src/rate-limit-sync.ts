/**
 * Shares the buckets between gateway instances on one database without a round trip per request.
 *
 * Each instance decides alone, from its own buckets, and every SYNC_MS writes its running total per bucket that
 * changed (one UPSERT) and reads the totals the others wrote since its last read (one SELECT). What another instance
 * admitted is taken from the local bucket as a debt: the bucket may go below zero and admits nothing until the
 * refill has paid it back. So over any stretch longer than a sync the instances together admit the limit, and the
 * excess is what they admitted in the same bucket before hearing of each other:
 * - steady flood: at most the refill of one to two sync intervals (rate × 0.2 s with SYNC_MS = 100), paid back at
 *   the next sync;
 * - a cold start: each instance starts a bucket full, so N instances may admit N bursts at once; the debt that
 *   follows holds the total over burst/rate seconds to the limit.
 * The trade-off: one write and one read a SYNC_MS per instance (whatever the request rate), against a limit that
 * holds within about rate × 0.2 s plus a burst per extra instance instead of exactly. A database outage leaves each
 * instance limiting alone (each then admits up to the full limit).
 *
 * A gateway that knows no other shares its database (`shared: false`: the all-in-one) writes and reads no usage. It
 * loads the overrides once (later ones are set through it) and forgets idle buckets once a minute.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db } from "@cardhold/db";
import type { RateLimiter } from "./rate-limiter";
import { deleteStaleUsage, loadOverrides, readUsage, writeUsage, type UsageRow } from "./store/rate-limits.store";

export const SYNC_MS = 100;
/** Overrides set through another instance apply here within this time. */
const OVERRIDES_EVERY = 10;
const HOUSEKEEPING_EVERY = 600;
/** Alone, how often idle buckets are forgotten (what HOUSEKEEPING_EVERY ticks come to when shared). */
const SOLE_HOUSEKEEPING_MS = 60_000;
/** A bucket full and unused this long is forgotten; usage rows unwritten for STALE_S are deleted. */
const IDLE_MS = 60_000;
const STALE_S = 300;
/** Reads look this far behind the previous read's clock: a write committed during that read is not missed. */
const READ_OVERLAP_MS = 2_000;

/** Turns the others' running totals into how much each of them admitted since this instance last looked. */
function remoteCounter() {
  const seen = new Map<string, { used: number; at: number }>();
  let baselined = false;
  return {
    deltas(rows: UsageRow[], now: number): { bucket: string; count: number }[] {
      const out = [];
      for (const row of rows) {
        const id = `${row.instance} ${row.bucket}`;
        const before = seen.get(id)?.used;
        seen.set(id, { used: row.used, at: now });
        if (!baselined) continue;
        // A total below the last one is a new counter (the bucket was forgotten there and made again).
        const count = before === undefined || row.used < before ? row.used : row.used - before;
        if (count > 0) out.push({ bucket: row.bucket, count });
      }
      baselined = true;
      return out;
    },
    forget(olderThan: number) {
      for (const [id, entry] of seen) if (entry.at < olderThan) seen.delete(id);
    },
  };
}

export interface RateLimitSyncOptions {
  /** Other gateway instances may use this database; false only where none can (the all-in-one). */
  shared: boolean;
}

export function createRateLimitSync(
  db: Db,
  limiter: RateLimiter,
  logger: Logger,
  opts: RateLimitSyncOptions = { shared: true },
) {
  const instance = randomUUID();
  const counter = remoteCounter();
  let since: Date | null = null;
  let tick = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  /** Alone, the overrides are read until one read succeeds; after that they change only through this instance. */
  let overridesLoaded = false;

  const exchange = async () => {
    const mine = limiter.unreported();
    if (mine.length > 0) {
      await writeUsage(db, instance, mine);
      limiter.markReported(mine);
    }
    const read = await readUsage(db, instance, since);
    since = new Date(read.now.getTime() - READ_OVERLAP_MS);
    const now = Date.now();
    for (const { bucket, count } of counter.deltas(read.rows, now)) limiter.chargeRemote(bucket, count, now);
  };

  const housekeeping = async () => {
    const now = Date.now();
    limiter.evictIdle(now, IDLE_MS);
    counter.forget(now - 2 * STALE_S * 1000);
    await deleteStaleUsage(db, STALE_S);
  };

  const sharedStep = async () => {
    await exchange();
    if (tick % OVERRIDES_EVERY === 0) limiter.replaceOverrides(await loadOverrides(db));
    if (tick % HOUSEKEEPING_EVERY === HOUSEKEEPING_EVERY - 1) await housekeeping();
  };

  /** Alone: nothing to tell anyone, so what this instance admitted counts as told, and an idle bucket can go. */
  const soleStep = async () => {
    if (!overridesLoaded) {
      limiter.replaceOverrides(await loadOverrides(db));
      overridesLoaded = true;
    }
    limiter.markReported(limiter.unreported());
    limiter.evictIdle(Date.now(), IDLE_MS);
  };

  const once = async () => {
    try {
      await (opts.shared ? sharedStep() : soleStep());
    } catch (err) {
      logger.warn({ err }, opts.shared ? "rate limits not shared this time" : "rate limit overrides not loaded");
    }
    tick += 1;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = once().then(schedule);
      },
      opts.shared ? SYNC_MS : SOLE_HOUSEKEEPING_MS,
    );
    timer.unref();
  };

  return {
    instance,
    /** Reads the overrides (and, shared, the others' totals) once before the gateway takes requests. */
    async start() {
      await once();
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
