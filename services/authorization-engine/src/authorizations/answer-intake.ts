import type { DecisionAnsweredMessage } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import type { DecisionLateness } from "./decision-lateness";
import { applyDecision, DECISION_DUE, type Decided } from "./decisions";
import type { DecisionWaiters } from "./decision-waiters";

export interface AnswerIntakeDeps {
  db: Db;
  waiters: DecisionWaiters;
  lateness: DecisionLateness;
}

/**
 * Takes a receiver's answer (or why none came), however it arrived: posted straight back by the dispatcher, or on
 * decisions.v1. Applied in its own transaction, then the requests waiting here are woken. Returns whether it decided
 * the authorization now; a repeat, or an answer to an earlier question, changes nothing (no inbox needed).
 */
export function createAnswerIntake(deps: AnswerIntakeDeps) {
  return async (answer: DecisionAnsweredMessage["data"]): Promise<boolean> => {
    const startedAt = Date.now();
    let inTransactionAt: number | undefined;
    let decided: Decided | undefined;
    await deps.db.tx(async (tx) => {
      inTransactionAt = Date.now();
      decided = await applyDecision(tx, answer, inTransactionAt);
    }, DECISION_DUE);
    if (!decided) return false;
    deps.waiters.decided([decided.row]);
    deps.lateness.applied("answer", decided.dueAt, { id: decided.row.id, startedAt, inTransactionAt });
    return true;
  };
}

export type AnswerIntake = ReturnType<typeof createAnswerIntake>;
