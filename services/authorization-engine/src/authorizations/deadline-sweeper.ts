import type { Logger } from "pino";
import { createPollingWorker, type PollingWorker } from "@cardhold/bus";
import { isDatabaseUnavailable, type Db, type Queryable } from "@cardhold/db";
import { DECISION_DUE } from "./decisions";
import type { TimeoutDefaults } from "./timeout-defaults";
import { findOverdueAuthorizationIds, nextDeadline } from "../store/authorizations.store";
import type { DecisionWaiters } from "./decision-waiters";

export interface SweeperOptions {
  db: Db;
  logger: Logger;
  waiters: DecisionWaiters;
  defaults: TimeoutDefaults;
  /**
   * How long past its 4-second deadline an authorization waits before the sweeper applies the timeout default
   * (default 50 ms). The grace leaves an answer the receiver gave just in time the moment it needs to reach the
   * engine, and bounds how late a default can be (deadline + grace + a few ms). A receiver that did not answer by the
   * deadline gets no answer from the dispatcher: this default (or the waiting request's) is the decision.
   */
  graceMs?: number;
  pollMs?: number;
}

const BATCH = 50;
/**
 * Overdue authorizations handed to the timeout defaults at once (which apply those asked together in one transaction).
 * One at a time, the ones an engine inherits from a crashed one (a few seconds of traffic, all due within a second)
 * ended up to 700 ms past their deadline on a busy machine in the chaos run; four at once, each in its own transaction,
 * still up to 1.7 s on a slower day.
 */
const CONCURRENCY = 16;
const OVERDUE_RECHECK_MS = 25;
/** A default that failed is tried again after this long, not at the next sweep (every 25 ms while it is overdue). */
const FAILED_RETRY_MS = 1_000;

/**
 * Ends every authorization whose answer is overdue with its timeout default (timeout-defaults.ts); durable across
 * restarts. Each poll reads the earliest open deadline and sets an alarm for it when it falls before the next
 * poll, so a default is applied within the grace of its deadline, not a poll later (a deadline is 4 s out when it is
 * set, the poll 1 s). An authorization whose request waits in this process is left to that request, which applies
 * the default itself at the same moment; the sweeper is for the others, above all those of an engine that died.
 * Defaults run beside the sweep, not inside it: the next alarm is set while they are under way, so one that falls due
 * meanwhile starts when a transaction place frees, not after the whole batch before it (a killed engine's
 * authorizations come due one after the other, 20–50 a second). The reads leave out the authorizations that requests
 * here wait for and that fall due before the next poll: each stays open past its deadline while its request applies
 * the default, and the alarm set for it rang every 25 ms meanwhile, two reads each time (while a receiver stalled,
 * two of the ~18 statements per authorization, ahead of all ordinary work for a connection).
 */
export function createDeadlineSweeper(opts: SweeperOptions): PollingWorker {
  const graceMs = opts.graceMs ?? 50;
  const pollMs = opts.pollMs ?? 1_000;
  let alarm: NodeJS.Timeout | undefined;
  let alarmRang = false;
  const armFor = (due: Date | undefined) => {
    clearTimeout(alarm);
    const wait = due === undefined ? Infinity : due.getTime() + graceMs - Date.now();
    const ring = () => {
      alarmRang = true;
      worker.wake();
    };
    // Still open past its deadline: being defaulted by its waiting request or locked by another engine; look again soon.
    if (wait < pollMs) alarm = setTimeout(ring, wait > 0 ? wait + 5 : OVERDUE_RECHECK_MS);
  };
  // Its reads too go ahead of new work waiting for a connection: they find the decisions due now.
  const reads: Queryable = { query: (text, values) => opts.db.query(text, values, DECISION_DUE) };
  const defaults = createDefaultLanes(opts, () => worker.wake());
  /** Under way here, or waited for here and due before the next poll (their requests apply the defaults). */
  const leftOut = () => [...defaults.underWay(), ...opts.waiters.dueWithin(pollMs + graceMs)];
  const worker = createPollingWorker({
    name: "deadline sweeper",
    logger: opts.logger,
    idleMs: pollMs,
    step: async () => {
      // One cheap read per poll; the locking transaction only when something is overdue. The alarm was set for a
      // deadline read before: it goes straight to the overdue ones (a round trip less between a deadline and its default).
      if (!alarmRang) {
        const due = await nextDeadline(reads, leftOut());
        if (due === undefined || due.getTime() + graceMs > Date.now()) {
          armFor(due);
          return false;
        }
      }
      alarmRang = false;
      // With every place taken and as many queued, the ones found now would only wait: the next alarm finds them.
      if (defaults.queued() < CONCURRENCY) {
        const overdue = await findOverdueAuthorizationIds(reads, graceMs, BATCH, leftOut());
        // A request waiting in this process applies its own default at the same moment: no second transaction racing it.
        for (const id of overdue) if (!opts.waiters.isWaiting(id)) defaults.start(id);
      }
      armFor(await nextDeadline(reads, leftOut()));
      return false;
    },
  });
  return {
    ...worker,
    async stop() {
      clearTimeout(alarm);
      await worker.stop();
      await defaults.drained();
    },
  };
}

/**
 * The sweeper's defaults, at most CONCURRENCY asked at once, the rest queued in order.
 * `retryDue`: a failed one may be tried again now.
 */
function createDefaultLanes(opts: SweeperOptions, retryDue: () => void) {
  const underWay = new Set<string>();
  const queue: string[] = [];
  let running = 0;
  let idle: (() => void) | undefined;

  const applyDefault = async (id: string) => {
    const decided = await opts.defaults.apply(id, { by: "deadline-sweeper", skipLocked: true });
    if (decided) opts.waiters.decided([decided]);
  };

  const next = () => {
    while (running < CONCURRENCY && queue.length > 0) {
      const id = queue.shift()!;
      running += 1;
      void applyDefault(id)
        .then(() => underWay.delete(id))
        // Still overdue and open: a sweep finds it again once it is let go (the database away: the sweep says so).
        .catch((err: unknown) => {
          if (!isDatabaseUnavailable(err))
            opts.logger.warn({ err, authorizationId: id }, "deadline sweeper: default failed");
          const letGo = () => {
            underWay.delete(id);
            retryDue();
          };
          setTimeout(letGo, FAILED_RETRY_MS).unref();
        })
        .finally(() => {
          running -= 1;
          next();
        });
    }
    if (running === 0 && queue.length === 0) idle?.();
  };

  return {
    underWay: () => [...underWay],
    queued: () => queue.length,
    start(id: string) {
      if (underWay.has(id)) return;
      underWay.add(id);
      queue.push(id);
      next();
    },
    drained: () =>
      running === 0 && queue.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)),
  };
}
