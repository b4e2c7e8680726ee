import type { Logger } from "pino";
import { createPollingWorker, type OutboxRelay, type PollingWorker } from "@cardhold/bus";
import type { Db } from "@cardhold/db";
import { applyOverdueDefaults } from "./authorizations/decisions";
import type { DecisionWaiters } from "./authorizations/decision-waiters";

export interface SweeperOptions {
  db: Db;
  logger: Logger;
  relay: Pick<OutboxRelay, "wake">;
  waiters: DecisionWaiters;
  /**
   * How long past its 4-second deadline an authorization waits before the sweeper applies the timeout default. The
   * dispatcher answers `timeout` itself after 4 s on the wire; this is the safety net when that answer cannot come
   * (a dispatcher or engine that stopped), so it leaves the dispatcher's answer time to arrive.
   */
  graceMs?: number;
  pollMs?: number;
}

const BATCH = 50;

/** Ends every authorization whose answer is overdue with its timeout default; durable across restarts. */
export function createDeadlineSweeper(opts: SweeperOptions): PollingWorker {
  const graceMs = opts.graceMs ?? 1_000;
  return createPollingWorker({
    name: "deadline sweeper",
    logger: opts.logger,
    idleMs: opts.pollMs ?? 250,
    step: async () => {
      const decided = await opts.db.tx((tx) => applyOverdueDefaults(tx, graceMs, BATCH, Date.now()));
      if (decided.length > 0) {
        opts.relay.wake();
        opts.waiters.decided(decided.map((row) => row.id));
      }
      return decided.length === BATCH;
    },
  });
}
