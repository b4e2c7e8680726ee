import type { DecisionAnsweredMessage } from "@cardhold/contracts";
import { createWriteBatch, type Queryable, type TxClient, type TxOptions } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import {
  applyAnswer,
  applyTimeoutDefault,
  isAwaitingAnswer,
  screenAnswer,
  type CheckFallback,
} from "../domain/authorization";
import { answerOf } from "../domain/receiver-answer";
import type { Channel } from "../domain/pre-checks";
import { needsApprovedToday, standInDayStart, standInVerdict, type StandInVerdict } from "../domain/stand-in";
import type { AccountRow } from "../store/accounts.store";
import { openLedger, type Ledger } from "../store/ledger.store";
import {
  lockAuthorizationById,
  lockFreeAuthorizations,
  type LockedAuthorization,
  standInApprovedSince,
  toDomain,
  type AuthorizationRow,
} from "../store/authorizations.store";
import { carryOut } from "./carry-out";

const scopeOf = (row: AuthorizationRow): Scope => ({ businessId: row.business_id, mode: row.mode });

/**
 * The transaction options of every decision (an answer, a timeout default): a connection before any new work waiting
 * for one, since the network is already waiting for this answer and new work can still be refused.
 */
export const DECISION_DUE: TxOptions = { urgent: true };

/**
 * What the platform reports for a check that its timeout default approves: the funding balance and the card's name,
 * from the funding account row the caller read (locked, when deciding).
 */
export function platformCheckAnswer(
  row: AuthorizationRow,
  fundingAccount: Pick<AccountRow, "posted" | "held"> | undefined,
  cardHolderName: string | undefined,
): CheckFallback | undefined {
  if (row.type !== "check") return undefined;
  return fundingAccount && cardHolderName !== undefined
    ? { cardBalance: fundingAccount.posted - fundingAccount.held, cardHolderName }
    : undefined;
}

/**
 * What the program's stand-in rules (kept on the authorization) decide for a capture's first decision without a usable
 * answer; undefined when there are none (the flat timeout default decides) or for a check or an amount change. Reads
 * what stand-in approved for the card today only when the deciding rule has a daily limit, under the funding account
 * lock the caller holds.
 */
export async function standInFor(
  tx: Queryable,
  row: AuthorizationRow,
  now: number,
): Promise<StandInVerdict | undefined> {
  if (!row.stand_in || row.type !== "capture" || row.pending_amount !== null) return undefined;
  const subject = { amount: row.amount, channel: row.channel as Channel, mcc: row.mcc ?? undefined };
  const approvedToday = needsApprovedToday(subject, row.stand_in)
    ? await standInApprovedSince(tx, scopeOf(row), row.card_id, new Date(standInDayStart(now)))
    : 0;
  return standInVerdict(subject, row.stand_in, approvedToday);
}

/** An authorization decided now, and the answer deadline it had (for the lateness histogram). */
export interface Decided {
  row: AuthorizationRow;
  dueAt: Date | null;
}

/**
 * The receiver's answer to a decision event (or why none came), from decisions.v1. An answer to an earlier question
 * (another event id), or one that comes after the authorization was decided, changes nothing. Returns the
 * authorization when it was decided now.
 */
export async function applyDecision(
  tx: TxClient,
  decision: DecisionAnsweredMessage["data"],
  now: number,
): Promise<Decided | undefined> {
  const locked = await lockAuthorizationById(tx, decision.resourceId);
  if (!locked) return undefined;
  const { row, fundingAccount, cardHolderName } = locked;
  const domain = toDomain(row);
  if (row.decision_event_id !== decision.eventId || !isAwaitingAnswer(domain)) return undefined;
  const answer = screenAnswer(domain, answerOf(decision));
  const standIn = answer.action === "unusable" ? await standInFor(tx, row, now) : undefined;
  const step = applyAnswer(domain, answer, now, platformCheckAnswer(row, fundingAccount, cardHolderName), standIn);
  return {
    row: await carryOut(tx, scopeOf(row), row, step, { lockedAlready: [fundingAccount] }),
    dueAt: row.decision_due_at,
  };
}

/**
 * The timeout default for one authorization awaiting its answer, unless it was decided meanwhile. `overdueByMs`: only
 * once its deadline is that far past by this process's clock (the sweeper, which picked it by the database's clock,
 * gives none).
 * One authorization per transaction: its row, then its funding account, locked in the order every decision locks
 * them (a batch holding several accounts while it locks the next deadlocked with requests on those cards).
 * `skipLocked` (the sweeper): leave an authorization another transaction holds to it. Without (the request waiting
 * on it): wait for that transaction, then find the authorization decided.
 */
export async function applyOverdueDefault(
  tx: TxClient,
  id: string,
  opts: { now: number; overdueByMs?: number; skipLocked?: boolean },
): Promise<Decided | undefined> {
  const locked = await lockAuthorizationById(tx, id, { skipLocked: opts.skipLocked });
  if (!locked) return undefined;
  const { row, fundingAccount, cardHolderName } = locked;
  const dueAt = row.decision_due_at;
  const early = opts.overdueByMs !== undefined && dueAt !== null && dueAt.getTime() + opts.overdueByMs > opts.now;
  if (dueAt === null || early || !isAwaitingAnswer(toDomain(row))) return undefined;
  const fallback = platformCheckAnswer(row, fundingAccount, cardHolderName);
  const standIn = await standInFor(tx, row, opts.now);
  const step = applyTimeoutDefault(toDomain(row), opts.now, "timeout-error", fallback, standIn);
  return { row: await carryOut(tx, scopeOf(row), row, step, { lockedAlready: [fundingAccount] }), dueAt };
}

/** An overdue authorization asked of applyOverdueDefaults; `overdueByMs` as for applyOverdueDefault. */
export interface OverdueAsk {
  id: string;
  overdueByMs?: number;
}

export interface DefaultsApplied {
  decided: Decided[];
  /** Held by another transaction (being decided there): not looked at. */
  held: string[];
  /**
   * Under stand-in rules, to be defaulted in a transaction of their own: a daily limit is read under the account lock,
   * after every write before it.
   */
  standIn: string[];
}

/**
 * The timeout defaults of several overdue authorizations in one transaction: one statement locks those no other
 * transaction holds, with their funding accounts (lockFreeAuthorizations: deadlock-free), and one statement writes
 * every step. Four round trips however many fall due together, where one transaction each held a connection and an
 * account lock for four round trips apiece.
 */
export async function applyOverdueDefaults(tx: TxClient, asks: OverdueAsk[], now: number): Promise<DefaultsApplied> {
  const overdueBy = new Map(asks.map((a) => [a.id, a.overdueByMs]));
  const all = await lockFreeAuthorizations(tx, [...overdueBy.keys()]);
  const held = new Set(overdueBy.keys());
  for (const { row } of all) held.delete(row.id);
  const standIn = all.filter((l) => l.row.stand_in).map((l) => l.row.id);
  const locked = all.filter((l) => !l.row.stand_in);
  const writes = createWriteBatch();
  const ledgers = await ledgersByScope(tx, locked, writes);
  const decided: Decided[] = [];
  for (const { row, cardHolderName } of locked) {
    const dueAt = row.decision_due_at;
    const margin = overdueBy.get(row.id);
    const early = margin !== undefined && dueAt !== null && dueAt.getTime() + margin > now;
    if (dueAt === null || early || !isAwaitingAnswer(toDomain(row))) continue;
    const ledger = ledgers.get(scopeKey(row))!;
    const fallback = platformCheckAnswer(row, ledger.balance(row.account_id), cardHolderName);
    const step = applyTimeoutDefault(toDomain(row), now, "timeout-error", fallback, undefined);
    decided.push({ row: await carryOut(tx, scopeOf(row), row, step, { ledger, deferWrites: true }), dueAt });
  }
  for (const ledger of ledgers.values()) ledger.settle();
  writes.sendWithNext(tx);
  return { decided, held: [...held], standIn };
}

const scopeKey = (row: AuthorizationRow) => `${row.business_id}/${row.mode}`;

/** One ledger per business and mode over the locked funding accounts (a movement is written in its ledger's scope). */
async function ledgersByScope(
  tx: TxClient,
  locked: LockedAuthorization[],
  writes: ReturnType<typeof createWriteBatch>,
): Promise<Map<string, Ledger>> {
  const accounts = new Map<string, LockedAuthorization[]>();
  for (const l of locked) accounts.set(scopeKey(l.row), [...(accounts.get(scopeKey(l.row)) ?? []), l]);
  const ledgers = new Map<string, Ledger>();
  for (const [key, rows] of accounts) {
    const lockedAlready = rows.map((r) => r.fundingAccount);
    const funded = [...new Set(lockedAlready.map((a) => a.id))];
    ledgers.set(key, await openLedger(tx, scopeOf(rows[0]!.row), { funded, lockedAlready }, writes));
  }
  return ledgers;
}
