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
 * Quiet (its last exchange wrote nothing and heard of nothing the others admitted), an instance exchanges every
 * QUIET_SYNC_MS instead: an idle gateway read the others' totals ten times a second for nothing (two idle gateways:
 * 38–47 ms of CPU a second, 15–18 with this; bench/README.md, forty-sixth session). A request it takes wakes it back
 * to SYNC_MS, so what it admits is told within SYNC_MS as before; hearing the others admit keeps it there too.
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
/** How often a quiet instance exchanges (see above). */
export const QUIET_SYNC_MS = 1_000;
/** Overrides set through another instance apply here within this time (a quiet instance's: within QUIET_SYNC_MS). */
const OVERRIDES_MS = 1_000;
/** How often idle buckets are forgotten and stale usage rows deleted. */
const HOUSEKEEPING_MS = 60_000;
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
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  /** Alone, the overrides are read until one read succeeds; after that they change only through this instance. */
  let overridesLoaded = false;

  /** Writes what this instance admitted, reads what the others did; whether either had anything (not quiet). */
  const exchange = async (): Promise<boolean> => {
    const mine = limiter.unreported();
    if (mine.length > 0) {
      await writeUsage(db, instance, mine);
      limiter.markReported(mine);
    }
    const read = await readUsage(db, instance, since);
    since = new Date(read.now.getTime() - READ_OVERLAP_MS);
    const now = Date.now();
    const theirs = counter.deltas(read.rows, now);
    for (const { bucket, count } of theirs) limiter.chargeRemote(bucket, count, now);
    return mine.length > 0 || theirs.length > 0;
  };

  const housekeeping = async () => {
    const now = Date.now();
    limiter.evictIdle(now, IDLE_MS);
    counter.forget(now - 2 * STALE_S * 1000);
    await deleteStaleUsage(db, STALE_S);
  };

  let overridesAt = -Infinity;
  let housekeptAt = Date.now();
  /** The last exchange found nothing to tell or to hear, and no request came since: the next waits QUIET_SYNC_MS. */
  let quiet = false;
  /** A request came during the step under way (its admission may be after the step's read of them). */
  let wokenDuringStep = false;
  let stepping = false;
  /** The timer set is a quiet one (QUIET_SYNC_MS), which a request shortens. */
  let waitingQuietly = false;

  const sharedStep = async () => {
    wokenDuringStep = false;
    const active = await exchange();
    quiet = !active && !wokenDuringStep;
    const now = Date.now();
    if (now - overridesAt >= OVERRIDES_MS) {
      limiter.replaceOverrides(await loadOverrides(db));
      overridesAt = now;
    }
    if (now - housekeptAt >= HOUSEKEEPING_MS) {
      housekeptAt = now;
      await housekeeping();
    }
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
      quiet = false;
      logger.warn({ err }, opts.shared ? "rate limits not shared this time" : "rate limit overrides not loaded");
    }
  };

  /** The next step in `ms`; a step under way schedules its own next when it ends. */
  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      stepping = true;
      running = once().then(() => {
        stepping = false;
        schedule(nextDelay());
      });
    }, ms);
    timer.unref();
    waitingQuietly = ms > SYNC_MS && opts.shared;
  };
  const nextDelay = () => (!opts.shared ? HOUSEKEEPING_MS : quiet ? QUIET_SYNC_MS : SYNC_MS);

  return {
    instance,
    /** Reads the overrides (and, shared, the others' totals) once before the gateway takes requests. */
    async start() {
      await once();
      schedule(nextDelay());
    },
    /** A request came: a quiet instance goes back to exchanging every SYNC_MS, starting within SYNC_MS. */
    wake() {
      quiet = false;
      wokenDuringStep = true;
      if (waitingQuietly && !stepping) schedule(SYNC_MS);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
