import type { DecisionAnsweredMessage } from "@cardhold/contracts";
import type { Queryable, TxClient } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import { applyAnswer, applyTimeoutDefault, isAwaitingAnswer, type CheckFallback } from "../domain/authorization";
import { answerOf } from "../domain/receiver-answer";
import { findAccountsByIds } from "../store/accounts.store";
import { lockAuthorizationById, lockOverdueAuthorizations, toDomain, type AuthorizationRow } from "../store/authorizations.store";
import { findCard } from "../store/cards.store";
import { carryOut } from "./carry-out";

const scopeOf = (row: AuthorizationRow): Scope => ({ businessId: row.business_id, mode: row.mode });

/** What the platform reports for a check that its timeout default approves: the funding balance and the card's name. */
export async function platformCheckAnswer(tx: Queryable, row: AuthorizationRow): Promise<CheckFallback | undefined> {
  if (row.type !== "check") return undefined;
  const [account] = await findAccountsByIds(tx, scopeOf(row), [row.account_id]);
  const card = await findCard(tx, scopeOf(row), row.card_id);
  return account && card ? { cardBalance: account.posted - account.held, cardHolderName: card.card_holder_name } : undefined;
}

/**
 * The receiver's answer to a decision event (or why none came), from decisions.v1. An answer to an earlier question
 * (another event id), or one that comes after the authorization was decided, changes nothing. Returns the
 * authorization when it was decided now.
 */
export async function applyDecision(tx: TxClient, decision: DecisionAnsweredMessage["data"], now: number): Promise<AuthorizationRow | undefined> {
  const locked = await lockAuthorizationById(tx, decision.resourceId);
  if (!locked) return undefined;
  const { row, fundingAccount } = locked;
  if (row.decision_event_id !== decision.eventId || !isAwaitingAnswer(toDomain(row))) return undefined;
  const step = applyAnswer(toDomain(row), answerOf(decision), now, await platformCheckAnswer(tx, row));
  return carryOut(tx, scopeOf(row), row, step, { lockedAlready: [fundingAccount] });
}

/**
 * Decides the authorizations whose answer is overdue by `graceMs` with their timeout default (statusReason
 * timeout-error). The deadline is in the database, so this also ends what a stopped engine left waiting.
 */
export async function applyOverdueDefaults(tx: TxClient, graceMs: number, limit: number, now: number): Promise<AuthorizationRow[]> {
  const decided: AuthorizationRow[] = [];
  for (const row of await lockOverdueAuthorizations(tx, graceMs, limit)) {
    const step = applyTimeoutDefault(toDomain(row), now, "timeout-error", await platformCheckAnswer(tx, row));
    decided.push(await carryOut(tx, scopeOf(row), row, step));
  }
  return decided;
}
