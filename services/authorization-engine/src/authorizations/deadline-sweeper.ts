import type { Logger } from "pino";
import { createPollingWorker, type PollingWorker } from "@cardhold/bus";
import type { Db, Queryable } from "@cardhold/db";
import type { DecisionLateness } from "./decision-lateness";
import { applyOverdueDefault, DECISION_DUE } from "./decisions";
import { findOverdueAuthorizationIds, nextDeadline } from "../store/authorizations.store";
import type { DecisionWaiters } from "./decision-waiters";

export interface SweeperOptions {
  db: Db;
  logger: Logger;
  waiters: DecisionWaiters;
  lateness: DecisionLateness;
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
 * Overdue authorizations defaulted at once, each in its own transaction. One at a time, the ones an engine inherits
 * from a crashed one (a few seconds of traffic, all due within a second) ended up to 700 ms past their deadline on a
 * busy machine in the chaos run; one transaction each still never holds two authorizations' locks.
 */
const CONCURRENCY = 4;
const OVERDUE_RECHECK_MS = 25;

/**
 * Ends every authorization whose answer is overdue with its timeout default, each in its own transaction; durable
 * across restarts. Each poll reads the earliest open deadline and sets an alarm for it when it falls before the next
 * poll, so a default is applied within the grace of its deadline, not a poll later (a deadline is 4 s out when it is
 * set, the poll 1 s). An authorization whose request waits in this process is left to that request, which applies
 * the default itself at the same moment; the sweeper is for the others, above all those of an engine that died.
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
  const worker = createPollingWorker({
    name: "deadline sweeper",
    logger: opts.logger,
    idleMs: pollMs,
    step: async () => {
      // One cheap read per poll; the locking transaction only when something is overdue. The alarm was set for a
      // deadline read before: it goes straight to the overdue ones (a round trip less between a deadline and its default).
      if (!alarmRang) {
        const due = await nextDeadline(reads);
        if (due === undefined || due.getTime() + graceMs > Date.now()) {
          armFor(due);
          return false;
        }
      }
      alarmRang = false;
      const overdue = await findOverdueAuthorizationIds(reads, graceMs, BATCH);
      // A request waiting in this process applies its own default at the same moment: no second transaction racing it.
      const orphans = overdue.filter((id) => !opts.waiters.isWaiting(id));
      await eachAtMost(CONCURRENCY, orphans, async (id) => {
        const startedAt = Date.now();
        let inTransactionAt: number | undefined;
        const decided = await opts.db.tx((tx) => {
          inTransactionAt = Date.now();
          return applyOverdueDefault(tx, id, { now: inTransactionAt, skipLocked: true });
        }, DECISION_DUE);
        if (!decided) return;
        opts.waiters.decided([decided.row]);
        opts.lateness.applied("deadline-sweeper", decided.dueAt, { id, startedAt, inTransactionAt });
      });
      if (orphans.length > 0 && overdue.length === BATCH) return true;
      armFor(await nextDeadline(reads));
      return false;
    },
  });
  return {
    ...worker,
    async stop() {
      clearTimeout(alarm);
      await worker.stop();
    },
  };
}

/** `work` on every item, at most `limit` at once; fails with the first failure once all have settled. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const lanes = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  });
  const failed = (await Promise.allSettled(lanes)).find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}
