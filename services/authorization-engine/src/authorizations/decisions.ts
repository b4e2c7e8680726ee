import type { DecisionAnsweredMessage } from "@cardhold/contracts";
import type { Queryable, TxClient, TxOptions } from "@cardhold/db";
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
import { findAccountsByIds } from "../store/accounts.store";
import {
  lockAuthorizationById,
  standInApprovedSince,
  toDomain,
  type AuthorizationRow,
} from "../store/authorizations.store";
import { findCard } from "../store/cards.store";
import { carryOut } from "./carry-out";

const scopeOf = (row: AuthorizationRow): Scope => ({ businessId: row.business_id, mode: row.mode });

/**
 * The transaction options of every decision (an answer, a timeout default): a connection before any new work waiting
 * for one, since the network is already waiting for this answer and new work can still be refused.
 */
export const DECISION_DUE: TxOptions = { urgent: true };

/** What the platform reports for a check that its timeout default approves: the funding balance and the card's name. */
export async function platformCheckAnswer(tx: Queryable, row: AuthorizationRow): Promise<CheckFallback | undefined> {
  if (row.type !== "check") return undefined;
  const [account] = await findAccountsByIds(tx, scopeOf(row), [row.account_id]);
  const card = await findCard(tx, scopeOf(row), row.card_id);
  return account && card
    ? { cardBalance: account.posted - account.held, cardHolderName: card.card_holder_name }
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
  const { row, fundingAccount } = locked;
  const domain = toDomain(row);
  if (row.decision_event_id !== decision.eventId || !isAwaitingAnswer(domain)) return undefined;
  const answer = screenAnswer(domain, answerOf(decision));
  const standIn = answer.action === "unusable" ? await standInFor(tx, row, now) : undefined;
  const step = applyAnswer(domain, answer, now, await platformCheckAnswer(tx, row), standIn);
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
  const { row, fundingAccount } = locked;
  const dueAt = row.decision_due_at;
  const early = opts.overdueByMs !== undefined && dueAt !== null && dueAt.getTime() + opts.overdueByMs > opts.now;
  if (dueAt === null || early || !isAwaitingAnswer(toDomain(row))) return undefined;
  const fallback = await platformCheckAnswer(tx, row);
  const standIn = await standInFor(tx, row, opts.now);
  const step = applyTimeoutDefault(toDomain(row), opts.now, "timeout-error", fallback, standIn);
  return { row: await carryOut(tx, scopeOf(row), row, step, { lockedAlready: [fundingAccount] }), dueAt };
}
