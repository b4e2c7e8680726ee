import type { Logger } from "pino";
import { isDatabaseUnavailable, type Db } from "@cardhold/db";
import type { AuthorizationRow } from "../store/authorizations.store";
import type { AppliedBy, DecisionLateness } from "./decision-lateness";
import { applyOverdueDefault, applyOverdueDefaults, DECISION_DUE, type Decided, type OverdueAsk } from "./decisions";

/** Most authorizations defaulted in one transaction (its statements grow with them). */
const MOST_AT_ONCE = 50;
/**
 * Groups under way at once: one asked while a group is under way starts at once in a second group rather than wait
 * for the first to finish (with one at a time, a default waited up to a whole transaction more, and the silent-receiver
 * bench's p99 past the deadline rose from ~150 to ~230 ms).
 */
const GROUPS_AT_ONCE = 2;

export interface DefaultAsk {
  by: Exclude<AppliedBy, "answer">;
  /** Only once its deadline is this far past by this process's clock (see applyOverdueDefault). */
  overdueByMs?: number;
  /** When another transaction holds it: leave it (the sweeper), rather than wait and find it decided (a request). */
  skipLocked?: boolean;
}

export interface TimeoutDefaults {
  /** The authorization as decided by its timeout default now, or undefined when it was decided otherwise (or held). */
  apply(id: string, ask: DefaultAsk): Promise<AuthorizationRow | undefined>;
}

interface Pending {
  id: string;
  ask: DefaultAsk;
  startedAt: number;
  resolve(decided: Decided | undefined): void;
  reject(err: unknown): void;
}

/**
 * Timeout defaults that fall due together are applied together: while GROUPS_AT_ONCE groups' transactions are under
 * way, those asked meanwhile wait and go in the next, one transaction for all (applyOverdueDefaults). When a receiver
 * stalls, a default falls due every few milliseconds; one transaction each took a connection each and queued for the
 * pool behind one another. One the group leaves over (under stand-in rules, or held elsewhere while its request waits
 * on it) gets a transaction of its own at once. The lateness of each is recorded as its own.
 */
export function createTimeoutDefaults(db: Db, lateness: DecisionLateness, logger: Logger): TimeoutDefaults {
  let queue: Pending[] = [];
  let running = 0;

  const alone = async (p: Pending): Promise<Decided | undefined> => {
    let inTransactionAt: number | undefined;
    const decided = await db.tx((tx) => {
      inTransactionAt = Date.now();
      const { overdueByMs, skipLocked } = p.ask;
      return applyOverdueDefault(tx, p.id, { now: inTransactionAt, overdueByMs, skipLocked });
    }, DECISION_DUE);
    if (decided) lateness.applied(p.ask.by, decided.dueAt, { id: p.id, startedAt: p.startedAt, inTransactionAt });
    return decided;
  };

  const together = async (group: Pending[]) => {
    const turnAt = Date.now();
    let inTransactionAt = 0;
    const asks: OverdueAsk[] = group.map((p) => ({ id: p.id, overdueByMs: p.ask.overdueByMs }));
    const skipsLocked = new Set(group.filter((p) => p.ask.skipLocked).map((p) => p.id));
    const applied = await db.tx((tx) => {
      inTransactionAt = Date.now();
      return applyOverdueDefaults(tx, asks, inTransactionAt);
    }, DECISION_DUE);
    const decided = new Map(applied.decided.map((d) => [d.row.id, d]));
    const ownTransaction = new Set([...applied.standIn, ...applied.held.filter((id) => !skipsLocked.has(id))]);
    for (const p of group) {
      const d = decided.get(p.id);
      if (d) lateness.applied(p.ask.by, d.dueAt, { id: p.id, startedAt: p.startedAt, turnAt, inTransactionAt });
      // Outside the group's turn: one that waits for a lock must not hold the next group back.
      if (ownTransaction.has(p.id)) alone(p).then(p.resolve, p.reject);
      else p.resolve(d);
    }
  };

  const next = () => {
    if (running >= GROUPS_AT_ONCE || queue.length === 0) return;
    running += 1;
    const group = queue.slice(0, MOST_AT_ONCE);
    queue = queue.slice(MOST_AT_ONCE);
    void together(group)
      .catch((err: unknown) => {
        // One bad authorization must not hold the others back: each again on its own (the database away: all fail).
        if (group.length === 1 || isDatabaseUnavailable(err)) for (const p of group) p.reject(err);
        else {
          logger.warn({ err, authorizations: group.length }, "timeout defaults together failed; each on its own");
          for (const p of group) alone(p).then(p.resolve, p.reject);
        }
      })
      .finally(() => {
        running -= 1;
        next();
      });
  };

  return {
    apply: (id, ask) =>
      new Promise<Decided | undefined>((resolve, reject) => {
        queue.push({ id, ask, startedAt: Date.now(), resolve, reject });
        next();
      }).then((decided) => decided?.row),
  };
}
