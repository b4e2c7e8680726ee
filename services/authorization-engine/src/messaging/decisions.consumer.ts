import type { Logger } from "pino";
import type { Bus } from "@cardhold/bus";
import { decisionAnsweredMessage, TOPICS } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import type { DecisionLateness } from "../authorizations/decision-lateness";
import { applyDecision, DECISION_DUE, type Decided } from "../authorizations/decisions";
import type { DecisionWaiters } from "../authorizations/decision-waiters";

/** decisions.v1 → the receiver's answers (or why none came) applied to the authorizations waiting for them. */
export function subscribeToDecisions(deps: {
  db: Db;
  bus: Bus;
  logger: Logger;
  waiters: DecisionWaiters;
  lateness: DecisionLateness;
}) {
  const consumer = "authorization-engine.decisions";
  return deps.bus.subscribe({
    group: consumer,
    topics: [TOPICS.decisions],
    handler: async (message) => {
      const parsed = decisionAnsweredMessage.safeParse(message.value);
      if (!parsed.success)
        return deps.logger.error({ messageId: message.id }, "skipping malformed decisions.v1 message");
      const startedAt = Date.now();
      let inTransactionAt: number | undefined;
      let decided: Decided | undefined;
      // No inbox: an answer applies only to the decision it names while it is open, so a repeat changes nothing.
      await deps.db.tx(async (tx) => {
        inTransactionAt = Date.now();
        decided = (await applyDecision(tx, parsed.data.data, inTransactionAt)) ?? undefined;
      }, DECISION_DUE);
      if (!decided) return;
      deps.waiters.decided([decided.row]);
      deps.lateness.applied("answer", decided.dueAt, { id: decided.row.id, startedAt, inTransactionAt });
    },
  });
}
