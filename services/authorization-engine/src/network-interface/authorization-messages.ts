/**
 * Authorization (0100) and financial (0200) requests: the card data checked, then a new check or capture through the
 * engine's network-request use case — the one the simulation endpoints call — answered once it is decided. Advices
 * (0120) are recorded and acknowledged.
 */
import { AppError } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { requestAuthorization, type NetworkRequest } from "../authorizations/network-requests";
import { ISO_NUMERIC_CURRENCY } from "../domain/iso4217";
import { responseCodeOfDecision } from "../domain/network-response-codes";
import { findByNetworkReference, type AuthorizationRow } from "../store/authorizations.store";
import type { PanCard } from "../store/card-pans.store";
import { additionalAmount, approvalCodeOf, type Answer } from "./answers";
import { cvv2Matches, expiryRefused } from "./card-checks";
import type { MessageDeadlines } from "./deadlines";
import { engineContextFor, found, nowOf, outcome, type MessageContext, type Outcome } from "./message-context";
import { channelOf } from "./message-flows";
import { networkReference, type TransactionMessage } from "./messages";

/** The card data the message carries, checked against the card's: expiry, CVV2, currency. */
function cardDataProblem(ctx: MessageContext, m: TransactionMessage, card: PanCard): Outcome | undefined {
  if (expiryRefused(card.expiry, m.expiry, nowOf(ctx))) return found("expired-card");
  if (m.cvv2 !== undefined && !cvv2Matches(m.cvv2, ctx.vault.open(card.cvv_encrypted))) return found("cvv2-mismatch");
  if (m.currency !== ISO_NUMERIC_CURRENCY[card.currency]) return found("invalid-transaction");
  return undefined;
}

function networkRequestOf(m: TransactionMessage, type: "check" | "capture", arrivedAt: number): NetworkRequest {
  const capture = type === "capture";
  return {
    channel: channelOf(m),
    mcc: m.mcc,
    merchantDescriptor: m.cardAcceptorNameLocation,
    reference: networkReference(m.messageClass, m.rrn, m.stan, m.terminalId),
    amount: capture ? m.amount : 0,
    fees: capture ? m.fee : 0,
    partialApprovalAllowed: capture && m.partialApprovalSupported,
    arrivedAt,
    networkData: {
      rrn: m.rrn.trim(),
      stan: m.stan,
      terminalId: m.terminalId.trim(),
      ...(m.merchantId && { merchantId: m.merchantId }),
      ...(m.acquirerId && { acquiringInstitutionId: m.acquirerId }),
    },
  };
}

/** The answer to a decided authorization (or 91 while it is not decided). */
export function answerOfDecision(row: AuthorizationRow): Answer {
  const code = responseCodeOfDecision({
    status: row.status,
    declineReason: row.decline_reason,
    statusReason: row.status_reason,
    amount: row.amount,
    requestedAmount: row.requested_amount,
  });
  if (code === undefined) return { code: "91" };
  if (code !== "00" && code !== "10") return { code };
  const currency = ISO_NUMERIC_CURRENCY[row.currency] ?? "000";
  const approval = { code, approvalCode: approvalCodeOf(row.id) };
  if (code === "10")
    return {
      ...approval,
      approvedAmount: row.amount,
      additionalAmounts: additionalAmount("57", currency, row.requested_amount ?? row.amount),
    };
  if (row.type === "check" && row.card_balance !== null)
    return { ...approval, additionalAmounts: additionalAmount("02", currency, row.card_balance) };
  return approval;
}

/** What the engine's refusals of a request mean to the network. */
function refusal(error: unknown): Outcome | undefined {
  if (!(error instanceof AppError)) return undefined;
  if (error.code === "authorization-dropped") return found("card-not-usable");
  if (error.code === "platform-overloaded") return found("issuer-unavailable");
  if (error.statusCode === 404) return found("unknown-card");
  return undefined;
}

export async function authorize(
  ctx: MessageContext,
  m: TransactionMessage,
  type: "check" | "capture",
  card: PanCard,
  times: { receivedAt: number } & MessageDeadlines,
): Promise<Outcome> {
  const problem = cardDataProblem(ctx, m, card);
  if (problem) return problem;
  const scope: Scope = { businessId: card.business_id, mode: card.mode };
  const request = networkRequestOf(m, type, times.engineArrivedAt);
  const engine = engineContextFor(ctx, times.receivedAt);
  try {
    // Admitted (load shedding) from the request until it is decided, as a simulation request is.
    const row = await ctx.admission.admit(
      times.receivedAt,
      async () => {
        const asked = await requestAuthorization(engine, scope, card.id, type, request);
        return ctx.waiters.until(scope, asked, Math.max(0, times.answerBy - nowOf(ctx)));
      },
      scope.businessId,
    );
    return outcome(answerOfDecision(row), row.id);
  } catch (error) {
    const refused = refusal(error);
    if (refused) return refused;
    throw error;
  }
}

/**
 * An advice: what the network did in the issuer's stead (its decision in field 39). Recorded, with the authorization
 * it is about when the network had asked first (same RRN, STAN and terminal as an 0100); nothing else changes — the
 * engine has no flow for a decision it did not take.
 */
export async function recordAdvice(ctx: MessageContext, m: TransactionMessage, card: PanCard): Promise<Outcome> {
  const scope: Scope = { businessId: card.business_id, mode: card.mode };
  const asked = await findByNetworkReference(
    ctx.db,
    scope,
    card.id,
    networkReference("010", m.rrn, m.stan, m.terminalId),
  );
  return found("accepted", asked?.id ?? null);
}
