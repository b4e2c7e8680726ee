import type { Db } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import { findAuthorization, type AuthorizationRow } from "../store/authorizations.store";

const POLL_MS = 100;

/**
 * Lets a request wait for an authorization to be decided. The engine that applies the decision hands the decided row
 * to the waiters in its own process at once (no read); a decision applied by another engine process is seen by the
 * poll.
 */
export function createDecisionWaiters(db: Db) {
  const waiting = new Map<string, Set<(row?: AuthorizationRow) => void>>();

  /** Registers a wake-up before the row is read, so a decision committed in between is not missed. */
  const arm = (id: string, ms: number) => {
    let wake: (row?: AuthorizationRow) => void = () => {};
    const woken = new Promise<AuthorizationRow | undefined>((resolve) => {
      const timer = setTimeout(() => wake(), ms);
      wake = (row?: AuthorizationRow) => {
        clearTimeout(timer);
        const set = waiting.get(id);
        set?.delete(wake);
        if (set?.size === 0) waiting.delete(id);
        resolve(row);
      };
    });
    if (!waiting.has(id)) waiting.set(id, new Set());
    waiting.get(id)!.add(wake);
    return { woken, cancel: () => wake() };
  };

  return {
    /** Call after the transaction that decided these authorizations committed, with their rows as committed. */
    decided(rows: AuthorizationRow[]): void {
      for (const row of rows) for (const wake of [...(waiting.get(row.id) ?? [])]) wake(row);
    },
    /** The authorization once nothing is asked of the receiver any more, or as it stands after `timeoutMs`. */
    async until(scope: Scope, asked: AuthorizationRow, timeoutMs: number): Promise<AuthorizationRow> {
      const deadline = Date.now() + timeoutMs;
      let row: AuthorizationRow | undefined = asked;
      for (;;) {
        const alarm = arm(asked.id, Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
        row ??= (await findAuthorization(db, scope, asked.id))!;
        if (row.decision_due_at === null || Date.now() >= deadline) {
          alarm.cancel();
          return row;
        }
        row = await alarm.woken; // the decided row from this process, or undefined: read again
      }
    },
  };
}

export type DecisionWaiters = ReturnType<typeof createDecisionWaiters>;
