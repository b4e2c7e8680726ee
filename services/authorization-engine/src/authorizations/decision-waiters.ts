import type { Db } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import { findAuthorization, type AuthorizationRow } from "../store/authorizations.store";

const POLL_MS = 100;

/**
 * Lets a request wait for an authorization to be decided. The engine that applies the decision wakes the waiters in
 * its own process at once; a decision applied by another engine process is seen by the poll.
 */
export function createDecisionWaiters(db: Db) {
  const waiting = new Map<string, Set<() => void>>();

  /** Registers a wake-up before the row is read, so a decision committed in between is not missed. */
  const arm = (id: string, ms: number) => {
    let wake = () => {};
    const woken = new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake(), ms);
      wake = () => {
        clearTimeout(timer);
        const set = waiting.get(id);
        set?.delete(wake);
        if (set?.size === 0) waiting.delete(id);
        resolve();
      };
    });
    if (!waiting.has(id)) waiting.set(id, new Set());
    waiting.get(id)!.add(wake);
    return { woken, cancel: () => wake() };
  };

  return {
    /** Call after the transaction that decided these authorizations committed. */
    decided(ids: string[]): void {
      for (const id of ids) for (const wake of [...(waiting.get(id) ?? [])]) wake();
    },
    /** The authorization once nothing is asked of the receiver any more, or as it stands after `timeoutMs`. */
    async until(scope: Scope, id: string, timeoutMs: number): Promise<AuthorizationRow> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const alarm = arm(id, Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
        const row = (await findAuthorization(db, scope, id))!;
        if (row.decision_due_at === null || Date.now() >= deadline) {
          alarm.cancel();
          return row;
        }
        await alarm.woken;
      }
    },
  };
}

export type DecisionWaiters = ReturnType<typeof createDecisionWaiters>;
