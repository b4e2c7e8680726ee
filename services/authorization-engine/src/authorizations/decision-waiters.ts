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

export interface DecisionWaitersOptions {
  pollMs?: number;
  /**
   * Applies the timeout default to one overdue authorization and returns it as decided, or undefined when it was
   * decided otherwise. Called for a request still waiting at its deadline plus `graceMs`.
   */
  applyDefault?: (asked: AuthorizationRow) => Promise<AuthorizationRow | undefined>;
  graceMs?: number;
}

/**
 * Lets a request wait for an authorization to be decided. The engine that applies the decision hands the decided row
 * to the waiters in its own process at once (no read). A decision applied by another engine process is seen by one
 * shared poll: a single statement every 100 ms for all waiting requests, however many there are. (A read per waiting
 * request grew with the backlog: under overload thousands of them filled the engine's pool, and every answer came late.)
 * The poll leaves out requests waiting less than half its interval: the receiver's answer comes back to the engine
 * that asked, so nearly always their decision is handed over here first (at 50 authorizations a second the poll read
 * something every 100 ms, for nothing).
 * A request still waiting at its deadline plus the grace applies the timeout default itself (`applyDefault`): a
 * sweeper in another process, or that process's poll, would add up to a poll's delay on top of the grace.
 */
export function createDecisionWaiters(db: Db, opts: DecisionWaitersOptions = {}) {
  const pollMs = opts.pollMs ?? POLL_MS;
  const graceMs = opts.graceMs ?? 50;
  const waiting = new Map<string, Set<Waiter>>();
  /** Each waited-for authorization's answer deadline (epoch ms). */
  const dueAt = new Map<string, number>();
  /** When a request in this process began to wait for each (performance.now(): a clock that never goes back). */
  const waitedSince = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const remove = (id: string, waiter: Waiter) => {
    const set = waiting.get(id);
    set?.delete(waiter);
    if (set?.size === 0) {
      waiting.delete(id);
      dueAt.delete(id);
      waitedSince.delete(id);
    }
  };

  const wakeAll = (row: AuthorizationRow) => {
    for (const waiter of [...(waiting.get(row.id) ?? [])]) {
      const sameScope = waiter.scope.businessId === row.business_id && waiter.scope.mode === row.mode;
      if (sameScope) waiter.resolve(row);
    }
  };

  const poll = async () => {
    timer = undefined;
    const ids = waitedLongEnough(performance.now() - pollMs / 2);
    try {
      if (ids.length > 0) for (const row of await findDecidedAmong(db, ids)) wakeAll(row);
    } catch {
      // The next poll tries again; each waiter still ends at its own deadline.
    }
    schedule();
  };

  /** The authorizations waited for since `since` or earlier, oldest first, MAX_POLLED at most. */
  const waitedLongEnough = (since: number) => {
    const ids: string[] = [];
    for (const [id, at] of waitedSince) {
      if (at > since || ids.length === MAX_POLLED) break;
      ids.push(id);
    }
    return ids;
  };

  const schedule = () => {
    if (timer === undefined && waiting.size > 0) timer = setTimeout(() => void poll(), pollMs);
  };

  /**
   * At the deadline plus the grace: the default applied here, or the decision someone else applied meanwhile. Tried
   * again every poll interval while the request waits (the database may be away for a moment).
   */
  const endOverdue = async (asked: AuthorizationRow) => {
    const id = asked.id;
    if (!waiting.has(id)) return;
    let row: AuthorizationRow | undefined;
    try {
      row = (await opts.applyDefault!(asked)) ?? (await findDecidedAmong(db, [id]))[0];
    } catch {
      // Tried again below; the sweeper and the poll may end it first.
    }
    if (row) wakeAll(row);
    else if (waiting.has(id)) setTimeout(() => void endOverdue(asked), pollMs).unref();
  };

  /** Waits for a decision until `ms` have passed; undefined when none came (the caller reads the row as it stands). */
  const wait = (scope: Scope, asked: AuthorizationRow, ms: number) =>
    new Promise<AuthorizationRow | undefined>((resolve) => {
      const id = asked.id;
      const waiter: Waiter = {
        scope,
        resolve: (row) => {
          clearTimeout(deadline);
          clearTimeout(overdue);
          remove(id, waiter);
          resolve(row);
        },
      };
      const deadline = setTimeout(() => waiter.resolve(undefined), ms);
      // A few ms past the grace: a timer may fire a little early by the wall clock the deadline is checked against.
      const overdueInMs = asked.decision_due_at!.getTime() + graceMs + 5 - Date.now();
      const overdue =
        opts.applyDefault && overdueInMs < ms
          ? setTimeout(() => void endOverdue(asked), Math.max(0, overdueInMs))
          : undefined;
      if (!waiting.has(id)) waiting.set(id, new Set());
      waiting.get(id)!.add(waiter);
      dueAt.set(id, asked.decision_due_at!.getTime());
      if (!waitedSince.has(id)) waitedSince.set(id, performance.now());
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
      const row = await wait(scope, asked, timeoutMs);
      return row ?? (await findAuthorization(db, scope, asked.id)) ?? asked;
    },
    /** Whether a request in this process waits for this authorization (and so applies its default itself). */
    isWaiting: (id: string) => waiting.has(id),
    /** The authorizations requests in this process wait for whose deadline is past or within `ms` from now. */
    dueWithin(ms: number): string[] {
      const horizon = Date.now() + ms;
      const ids: string[] = [];
      for (const [id, due] of dueAt) if (due <= horizon) ids.push(id);
      return ids;
    },
    /** Requests waiting now (the engine's authorizations_awaiting_decision gauge). */
    waitingCount: () => [...waiting.values()].reduce((n, set) => n + set.size, 0),
  };
}

export type DecisionWaiters = ReturnType<typeof createDecisionWaiters>;
