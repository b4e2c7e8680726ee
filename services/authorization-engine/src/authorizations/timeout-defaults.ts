import type { Logger } from "pino";
import { isDatabaseUnavailable, type Db } from "@cardhold/db";
import type { AuthorizationRow } from "../store/authorizations.store";
import type { AppliedBy, DecisionLateness } from "./decision-lateness";
import { applyOverdueDefault, applyOverdueDefaults, DECISION_DUE, type Decided, type OverdueAsk } from "./decisions";

/** Most authorizations defaulted in one transaction (its statements grow with them). */
const MOST_AT_ONCE = 50;
/**
 * Groups under way at once, each on a funding account of its own: one asked while its account's group is under way
 * waits for it (the two would wait on the same lock), one on another account starts at once (with one group at a time,
 * a default waited up to a whole transaction more, and the silent-receiver bench's p99 past the deadline rose from
 * ~150 to ~230 ms).
 */
const GROUPS_AT_ONCE = 4;

export interface DefaultAsk {
  by: Exclude<AppliedBy, "answer">;
  /** Only once its deadline is this far past by this process's clock (see applyOverdueDefault). */
  overdueByMs?: number;
  /** When another transaction holds it: leave it (the sweeper), rather than wait and find it decided (a request). */
  skipLocked?: boolean;
  /** The authorization's funding account: the defaults of one account go in one group, those of others apart. */
  accountId: string;
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
 * Timeout defaults that fall due together are applied together, a group per funding account: while an account's
 * group is under way (or GROUPS_AT_ONCE groups are), those asked meanwhile wait and go in its next, one transaction for
 * all (applyOverdueDefaults). When a receiver stalls, a default falls due every few milliseconds; one transaction each
 * took a connection each and queued for the pool behind one another. One group for every account locked the accounts
 * one after the other, waiting behind each one's holder in turn (a chaos run's defaults spent ~300 ms in their
 * transaction, bench/README.md, forty-fourth session): a group now waits for one account's lock only. One the group
 * leaves over (under stand-in rules, or held elsewhere while its request waits on it) gets a transaction of its own at
 * once. The lateness of each is recorded as its own.
 */
export function createTimeoutDefaults(db: Db, lateness: DecisionLateness, logger: Logger): TimeoutDefaults {
  let queue: Pending[] = [];
  /** The funding accounts whose group's transaction is under way. */
  const busy = new Set<string>();

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
    if (busy.size >= GROUPS_AT_ONCE) return;
    const account = queue.find((p) => !busy.has(p.ask.accountId))?.ask.accountId;
    if (account === undefined) return;
    const group = queue.filter((p) => p.ask.accountId === account).slice(0, MOST_AT_ONCE);
    const grouped = new Set(group);
    queue = queue.filter((p) => !grouped.has(p));
    busy.add(account);
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
        busy.delete(account);
        next();
      });
    next();
  };

  return {
    apply: (id, ask) =>
      new Promise<Decided | undefined>((resolve, reject) => {
        queue.push({ id, ask, startedAt: Date.now(), resolve, reject });
        next();
      }).then((decided) => decided?.row),
  };
}
