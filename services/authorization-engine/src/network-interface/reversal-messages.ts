/**
 * Reversals (0400) and reversal advices (0420): the original is found by field 90 (its MTI and STAN) with the
 * reversal's own RRN and terminal. Full: the engine's reverse flow. Partial (field 95, the amount the transaction ends
 * at): the engine's amount-update flow. Answered once the engine took it; the receiver's answer to an amount update
 * comes later, as on the simulation endpoint.
 */
import { AppError } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { requestAmountChange, requestReversal } from "../authorizations/network-requests";
import { findAuthorization, findByNetworkReference, type AuthorizationRow } from "../store/authorizations.store";
import type { PanCard } from "../store/card-pans.store";
import type { MessageDeadlines } from "./deadlines";
import { engineContextFor, found, nowOf, type MessageContext, type Outcome } from "./message-context";
import type { Flow } from "./message-flows";
import { classOf, networkReference, type TransactionMessage } from "./messages";

type ReversalFlow = Extract<Flow, { kind: "reverse" | "lower-amount" }>;

/** The original authorization, once decided (waiting for its decision until the answer is due). */
async function decidedOriginal(
  ctx: MessageContext,
  scope: Scope,
  m: TransactionMessage,
  card: PanCard,
  answerBy: number,
): Promise<AuthorizationRow | "unknown" | "not-reversible"> {
  const originalClass = classOf(m.original!.mti);
  if (originalClass !== "010" && originalClass !== "020") return "not-reversible";
  const reference = networkReference(originalClass, m.rrn, m.original!.stan, m.terminalId);
  const original = await findByNetworkReference(ctx.db, scope, card.id, reference);
  if (!original) return "unknown";
  return ctx.waiters.until(scope, original, Math.max(0, answerBy - nowOf(ctx)));
}

/** What the engine does with the original, or why nothing is done (nothing approved to reverse: acknowledged). */
async function carryOut(
  ctx: MessageContext,
  scope: Scope,
  original: AuthorizationRow,
  flow: ReversalFlow,
  receivedAt: number,
): Promise<Outcome> {
  if (original.type !== "capture" || original.status !== "approved") return found("accepted", original.id);
  if (flow.kind === "reverse") {
    await requestReversal(engineContextFor(ctx, receivedAt), scope, original.id);
    return found("accepted", original.id);
  }
  if (flow.amount === original.amount) return found("accepted", original.id);
  if (flow.amount > original.amount) return found("invalid-transaction", original.id);
  const update = { amount: flow.amount, fees: flow.fees };
  await requestAmountChange(engineContextFor(ctx, receivedAt), scope, original.id, update, receivedAt);
  return found("accepted", original.id);
}

export async function reverseOriginal(
  ctx: MessageContext,
  m: TransactionMessage,
  flow: ReversalFlow,
  card: PanCard,
  times: { receivedAt: number } & MessageDeadlines,
): Promise<Outcome> {
  const scope: Scope = { businessId: card.business_id, mode: card.mode };
  const original = await decidedOriginal(ctx, scope, m, card, times.answerBy);
  if (original === "not-reversible") return found("invalid-transaction");
  if (original === "unknown") return found("original-not-found", null, false);
  if (original.status === "pending") return found("issuer-unavailable", original.id, false);
  try {
    return await carryOut(ctx, scope, original, flow, times.receivedAt);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "invalid-state")) throw error;
    // Another message changed the original meanwhile (a copy of this one under way): done, if it did what this asks.
    const now = await findAuthorization(ctx.db, scope, original.id);
    return now && alreadyDone(now, flow)
      ? found("accepted", original.id)
      : found("issuer-unavailable", original.id, false);
  }
}

/** Whether the original already is where the reversal takes it: reversed, or at (or asked to go to) the amount. */
const alreadyDone = (row: AuthorizationRow, flow: ReversalFlow) =>
  flow.kind === "reverse"
    ? row.status === "reversed"
    : row.amount === flow.amount || row.pending_amount === flow.amount;
