import type { Logger } from "pino";
import { Histogram, type Registry } from "prom-client";

/**
 * What applied a decision: the receiver's answer (or the dispatcher's word that none came), the deadline sweeper, or
 * the request waiting for the decision, at its deadline plus the grace (both apply the timeout default).
 */
export type AppliedBy = "answer" | "deadline-sweeper" | "waiting-request";

export interface DecisionLateness {
  /**
   * Call after the decision committed, with the answer deadline it was decided against, when its work started and
   * when its transaction had a connection (so a late one says whether it started late, waited for a connection, or
   * took long inside the transaction).
   */
  applied(by: AppliedBy, dueAt: Date | null, decided: DecidedTimes): void;
}

export interface DecidedTimes {
  id: string;
  /** When the work that decided it started (before asking the pool for a connection). */
  startedAt: number;
  /** When it left a queue of its own for the pool (a timeout default waits for its group's turn); else startedAt. */
  turnAt?: number;
  /** When its transaction's first statement could run (the pool gave a connection and BEGIN was sent). */
  inTransactionAt?: number;
}

/** Past this, the card network's answer is late (the deadline plus the 250 ms issue 12 allows): logged one by one. */
const LATE_MS = 250;

/**
 * How late past its answer deadline each decision was applied (0 when on time). The sweeper's defaults land at the
 * deadline plus its grace (50 ms by default); anything well past that means the sweeper or the decisions topic fell
 * behind, and the network waited. Observed after the commit, from values at hand: no statement on the real-time path.
 */
export function createDecisionLateness(registry: Registry, logger: Logger): DecisionLateness {
  const histogram = new Histogram({
    name: "authorization_decision_lateness_seconds",
    help: "How long after its answer deadline each awaited authorization was decided (0 when on time), by what applied it",
    labelNames: ["applied_by"] as const,
    buckets: [0, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  for (const by of ["answer", "deadline-sweeper", "waiting-request"] as const) histogram.zero({ applied_by: by });
  return {
    applied(by, dueAt, { id, startedAt, turnAt = startedAt, inTransactionAt }) {
      if (dueAt === null) return;
      const now = Date.now();
      const lateMs = now - dueAt.getTime();
      histogram.observe({ applied_by: by }, Math.max(0, lateMs) / 1_000);
      if (lateMs > LATE_MS) {
        const startedLateMs = startedAt - dueAt.getTime();
        const phases =
          inTransactionAt === undefined
            ? {}
            : {
                ...(turnAt > startedAt ? { queuedMs: turnAt - startedAt } : {}),
                connectionWaitMs: inTransactionAt - turnAt,
                transactionMs: now - inTransactionAt,
              };
        logger.warn({ authorizationId: id, appliedBy: by, lateMs, startedLateMs, ...phases }, "decision applied late");
      }
    },
  };
}
