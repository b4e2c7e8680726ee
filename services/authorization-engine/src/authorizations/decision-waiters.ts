import type { Db } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import { findAuthorization, findDecidedAmong, type AuthorizationRow } from "../store/authorizations.store";

const POLL_MS = 100;
/** Waiting ids read by one poll statement at most; more wait for the next poll. */
const MAX_POLLED = 1_000;

interface Waiter {
  scope: Scope;
  resolve(row: AuthorizationRow | undefined): void;
}

/**
 * Lets a request wait for an authorization to be decided. The engine that applies the decision hands the decided row
 * to the waiters in its own process at once (no read). A decision applied by another engine process is seen by one
 * shared poll: a single statement every 100 ms for all waiting requests, however many there are. (A read per waiting
 * request grew with the backlog: under overload thousands of them filled the engine's pool, and every answer came late.)
 */
export function createDecisionWaiters(db: Db, opts: { pollMs?: number } = {}) {
  const pollMs = opts.pollMs ?? POLL_MS;
  const waiting = new Map<string, Set<Waiter>>();
  let timer: NodeJS.Timeout | undefined;

  const remove = (id: string, waiter: Waiter) => {
    const set = waiting.get(id);
    set?.delete(waiter);
    if (set?.size === 0) waiting.delete(id);
  };

  const wakeAll = (row: AuthorizationRow) => {
    for (const waiter of [...(waiting.get(row.id) ?? [])]) {
      const sameScope = waiter.scope.businessId === row.business_id && waiter.scope.mode === row.mode;
      if (sameScope) waiter.resolve(row);
    }
  };

  const poll = async () => {
    timer = undefined;
    const ids = [...waiting.keys()].slice(0, MAX_POLLED);
    try {
      if (ids.length > 0) for (const row of await findDecidedAmong(db, ids)) wakeAll(row);
    } catch {
      // The next poll tries again; each waiter still ends at its own deadline.
    }
    schedule();
  };

  const schedule = () => {
    if (timer === undefined && waiting.size > 0) timer = setTimeout(() => void poll(), pollMs);
  };

  /** Waits for a decision until `ms` have passed; undefined when none came (the caller reads the row as it stands). */
  const wait = (scope: Scope, id: string, ms: number) =>
    new Promise<AuthorizationRow | undefined>((resolve) => {
      const waiter: Waiter = {
        scope,
        resolve: (row) => {
          clearTimeout(deadline);
          remove(id, waiter);
          resolve(row);
        },
      };
      const deadline = setTimeout(() => waiter.resolve(undefined), ms);
      if (!waiting.has(id)) waiting.set(id, new Set());
      waiting.get(id)!.add(waiter);
      schedule();
    });

  return {
    /** Call after the transaction that decided these authorizations committed, with their rows as committed. */
    decided(rows: AuthorizationRow[]): void {
      for (const row of rows) wakeAll(row);
    },
    /** The authorization once nothing is asked of the receiver any more, or as it stands after `timeoutMs`. */
    async until(scope: Scope, asked: AuthorizationRow, timeoutMs: number): Promise<AuthorizationRow> {
      if (asked.decision_due_at === null) return asked;
      const row = await wait(scope, asked.id, timeoutMs);
      return row ?? (await findAuthorization(db, scope, asked.id)) ?? asked;
    },
    /** Requests waiting now (the engine's authorizations_awaiting_decision gauge). */
    waitingCount: () => [...waiting.values()].reduce((n, set) => n + set.size, 0),
  };
}

export type DecisionWaiters = ReturnType<typeof createDecisionWaiters>;
