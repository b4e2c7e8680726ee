import type { Logger } from "pino";
import { createPollingWorker, type PollingWorker } from "@cardhold/bus";
import { isDatabaseUnavailable, type Db, type Queryable } from "@cardhold/db";
import { DECISION_DUE } from "./decisions";
import type { TimeoutDefaults } from "./timeout-defaults";
import { upcomingDeadlines } from "../store/authorizations.store";
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
 * restarts. Each poll reads the earliest open deadlines and sets an alarm for the first when it falls before the next
 * poll, so a default is applied within the grace of its deadline, not a poll later (a deadline is 4 s out when it is
 * set, the poll 1 s); when it rings, the overdue ones among those read go to the defaults before any read (a round
 * trip less between a deadline and its default: a killed engine's defaults started 100–280 ms after their deadline on
 * a loaded machine, a read included). An authorization whose request waits in this process is left to that request,
 * which applies the default itself at the same moment; the sweeper is for the others, above all those of an engine
 * that died.
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
  const armFor = (due: Date | undefined) => {
    clearTimeout(alarm);
    const wait = due === undefined ? Infinity : due.getTime() + graceMs - Date.now();
    // Still open past its deadline: being defaulted by its waiting request or locked by another engine; look again soon.
    if (wait < pollMs) alarm = setTimeout(() => worker.wake(), wait > 0 ? wait + 5 : OVERDUE_RECHECK_MS);
  };
  // Its reads too go ahead of new work waiting for a connection: they find the decisions due now.
  const reads: Queryable = { query: (text, values) => opts.db.query(text, values, DECISION_DUE) };
  const defaults = createDefaultLanes(opts, graceMs, () => worker.wake());
  /** Under way here, or waited for here and due before the next poll (their requests apply the defaults). */
  const leftOut = () => [...defaults.underWay(), ...opts.waiters.dueWithin(pollMs + graceMs)];
  /** The earliest open deadlines as last read, those handed to the defaults taken out. */
  let upcoming: Array<{ id: string; dueAt: Date; accountId: string }> = [];
  const startOverdue = () => {
    const isOverdue = (u: { dueAt: Date }) => u.dueAt.getTime() + graceMs <= Date.now();
    // A request waiting in this process applies its own default at the same moment: no second transaction racing it.
    for (const u of upcoming) if (isOverdue(u) && !opts.waiters.isWaiting(u.id)) defaults.start(u);
    upcoming = upcoming.filter((u) => !isOverdue(u));
  };
  const worker = createPollingWorker({
    name: "deadline sweeper",
    logger: opts.logger,
    idleMs: pollMs,
    step: async () => {
      // The alarm rang for deadlines read before: those overdue go to the defaults at once, without a read between
      // the deadline and the default (each default checks in its transaction that it is overdue and still open).
      startOverdue();
      // With every place taken and as many queued, more found now would only wait (and lengthen the read's list of
      // those left out): look again soon instead.
      if (defaults.queued() >= CONCURRENCY) {
        armFor(new Date(0));
        return false;
      }
      upcoming = await upcomingDeadlines(reads, BATCH, leftOut());
      startOverdue();
      armFor(upcoming[0]?.dueAt);
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

/** An authorization past its deadline, and its funding account (its default's group, timeout-defaults.ts). */
interface Overdue {
  id: string;
  accountId: string;
}

/**
 * The sweeper's defaults, at most CONCURRENCY asked at once, the rest queued in order.
 * `retryDue`: a failed one may be tried again now, or one left alone (held by another transaction) looked at again.
 */
function createDefaultLanes(opts: SweeperOptions, graceMs: number, retryDue: () => void) {
  const underWay = new Set<string>();
  const queue: Overdue[] = [];
  let running = 0;
  let idle: (() => void) | undefined;

  const applyDefault = async ({ id, accountId }: Overdue) => {
    const ask = { by: "deadline-sweeper", overdueByMs: graceMs, skipLocked: true, accountId } as const;
    const decided = await opts.defaults.apply(id, ask);
    if (decided) opts.waiters.decided([decided]);
    // Decided elsewhere, or held by another transaction (its request's default; an engine that just died, whose lock
    // goes with its connection): the next sweep finds it again if it is still open.
    else setTimeout(retryDue, OVERDUE_RECHECK_MS).unref();
  };

  const next = () => {
    while (running < CONCURRENCY && queue.length > 0) {
      const overdue = queue.shift()!;
      const id = overdue.id;
      running += 1;
      void applyDefault(overdue)
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
    start(overdue: Overdue) {
      if (underWay.has(overdue.id)) return;
      underWay.add(overdue.id);
      queue.push(overdue);
      next();
    },
    drained: () =>
      running === 0 && queue.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)),
  };
}
