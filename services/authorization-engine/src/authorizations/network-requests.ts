import { randomInt } from "node:crypto";
import { createWriteBatch, type Db, type Queryable } from "@cardhold/db";
import { AppError, failpoint, newId, notFound, recordIdempotentEffect, stateConflict } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import {
  askReceiver,
  declineByService,
  decideWithoutAsking,
  IllegalTransition,
  requestAmountUpdate,
  reverse,
  tooLateToAsk,
  type Authorization,
  type Step,
} from "../domain/authorization";
import { feeCharge } from "../domain/fees";
import { preCheck, type Channel } from "../domain/pre-checks";
import { intervalStart, type LimitInterval } from "../domain/spending-windows";
import { standInInForce, type StandInInForce } from "../domain/stand-in";
import {
  findAuthorization,
  findByNetworkReference,
  networkReferenceTaken,
  toDomain,
  spentSince,
  type AuthorizationRow,
} from "../store/authorizations.store";
import { findAuthorizationSubject, type AuthorizationSubject } from "../store/cards.store";
import { openLedger } from "../store/ledger.store";
import { carryOut } from "./carry-out";
import type { Admission } from "@cardhold/platform";
import { platformCheckAnswer, standInFor } from "./decisions";

export interface NetworkContext {
  db: Db;
  now?: () => number;
  /**
   * Load shedding for new authorization requests (none when absent): the caller admits a request until it is decided;
   * here, a request that waited too long for its database connection is refused.
   */
  admission?: Admission;
  /**
   * This engine process's internal address, carried by each decision event it emits: the dispatcher posts the
   * receiver's answer straight back here, where the request waits on it (none: the answer comes on decisions.v1).
   */
  answerTo?: string;
}

/** What a card network sends with an authorization request (the simulation endpoints play the network). */
export interface NetworkRequest {
  channel: Channel;
  mcc?: string;
  merchantDescriptor?: string;
  merchant?: string;
  reference?: string;
  amount: number;
  fees: number;
  /** A capture may be approved for less than its amount (the network says so, as for prepaid cards). */
  partialApprovalAllowed?: boolean;
  /** When the request reached the platform (default: now); the receiver's window runs from there, not from a queue. */
  arrivedAt?: number;
  /** What a real network's message said (ISO 8583: rrn, stan, terminalId …): kept over the simulated values. */
  networkData?: Record<string, string>;
}

/** The request was discarded (interface: card, customer or account inactive): nothing was created. */
export const dropped = (cardId: string, why: string) =>
  new AppError(
    422,
    "authorization-dropped",
    `The request was dropped: ${why}. No authorization was created for card ${cardId}.`,
  );

const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join("");

type SubjectCard = AuthorizationSubject["card"];
type SubjectProgram = AuthorizationSubject["program"];

function networkDataFor(card: SubjectCard, request: NetworkRequest, reference: string): Record<string, string> {
  return {
    network: card.network,
    reference,
    rrn: digits(12),
    stan: digits(6),
    txnReference: digits(10),
    cardAcceptorNameLocation: request.merchantDescriptor ?? "CARDHOLD SANDBOX MERCHANT LAGOS NG",
    terminalId: "CHSIM001",
    ...request.networkData,
  };
}

async function spentPerInterval(tx: Queryable, card: SubjectCard, now: number) {
  const starts = (card.controls.spendingLimits ?? [])
    .map((l) => [l.interval, intervalStart(l.interval, now)] as const)
    .filter((s): s is readonly [LimitInterval, number] => s[1] !== null)
    .map(([interval, start]) => [interval, new Date(start)] as [LimitInterval, Date]);
  return spentSince(tx, card.id, starts);
}

/** The program's own fee, added to the network's on a capture: its fee's charge on the amount. */
const programFeeOn = (type: "check" | "capture", program: SubjectProgram, amount: number) =>
  type === "capture" ? feeCharge(program.transaction_fee_terms, amount) : 0;

function newRow(
  scope: Scope,
  card: SubjectCard,
  program: SubjectProgram,
  type: "check" | "capture",
  request: NetworkRequest,
  fallback: { timeoutDefault: Authorization["timeoutDefault"]; standIn: StandInInForce | null },
): AuthorizationRow {
  // Checks keep the flat timeout default: stand-in rules decide captures only.
  const standIn = type === "capture" ? fallback.standIn : null;
  const reference = request.reference ?? digits(13);
  const now = new Date();
  return {
    id: newId("authorization"),
    business_id: scope.businessId,
    mode: scope.mode,
    card_id: card.id,
    customer_id: card.customer_id,
    account_id: card.funding_account_id,
    settlement_account_id: program.settlement_account_id,
    program_id: program.id,
    type,
    status: "pending",
    amount: request.amount,
    requested_amount: request.amount,
    partial_approval_allowed: type === "capture" && request.partialApprovalAllowed === true,
    fees: request.fees + programFeeOn(type, program, request.amount),
    currency: card.currency,
    channel: request.channel,
    mcc: request.mcc ?? null,
    merchant_id: request.merchant ?? null,
    decision_type: null,
    status_reason: null,
    decline_reason: null,
    reserved: false,
    held: 0,
    debited: 0,
    pending_amount: null,
    pending_fees: null,
    decision_due_at: null,
    decision_event_id: null,
    timeout_default: fallback.timeoutDefault,
    webhook_id: program.webhook_id,
    card_balance: null,
    card_holder_name: null,
    network_reference: reference,
    network_data: networkDataFor(card, request, reference),
    metadata: {},
    stand_in: standIn?.standIn ?? null,
    stand_in_source: standIn?.source ?? null,
    stand_in_rule: null,
    created_at: now,
    updated_at: now,
    decided_at: null,
  };
}

/**
 * A check or capture request from the network: drop it (card, customer or account inactive), decline it (a failed
 * pre-check), or hold the funds and ask the receiver — all in one transaction, with the funding account locked so
 * that concurrent captures cannot spend the same money. A request sent again with the same network reference is
 * the same authorization: it is returned as it stands and charges nothing more. A repeat is found by its insert (the
 * reference is unique per card), which rolls its transaction back, not by a look-up before: that was one statement
 * more for every request, for the rare repeat.
 */
export async function requestAuthorization(
  ctx: NetworkContext,
  scope: Scope,
  cardId: string,
  type: "check" | "capture",
  request: NetworkRequest,
): Promise<AuthorizationRow> {
  const timing: { inTransactionAt?: number } = {};
  const row = await takeRequest(ctx, scope, cardId, type, request, timing);
  // Its statements and commit, not the wait for a connection (a burst's queue): slow when the engine or its database
  // is short of CPU (Admission.observePlatformMs).
  if (timing.inTransactionAt !== undefined)
    ctx.admission?.observePlatformMs((ctx.now?.() ?? Date.now()) - timing.inTransactionAt);
  // The request is committed with its event in the outbox but maybe not yet published: a crash here must lose nothing.
  if (row.decision_due_at) failpoint("authorization-engine:after-request");
  return row;
}

function takeRequest(
  ctx: NetworkContext,
  scope: Scope,
  cardId: string,
  type: "check" | "capture",
  request: NetworkRequest,
  timing: { inTransactionAt?: number },
): Promise<AuthorizationRow> {
  return ctx.db
    .tx(async (tx) => {
      // Read the clock once the transaction has its connection: under load, waiting for one eats into the window.
      const now = ctx.now?.() ?? Date.now();
      timing.inTransactionAt = now;
      ctx.admission?.ensureInTime(request.arrivedAt, now);
      const subject = await findAuthorizationSubject(tx, scope, cardId);
      if (!subject) throw notFound("Card", cardId);
      const { card, program } = subject;
      const ledger = await openLedger(
        tx,
        scope,
        { funded: [card.funding_account_id], lockedAlready: [subject.fundingAccount] },
        createWriteBatch(),
      );
      const account = ledger.account(card.funding_account_id);
      const pre = preCheck({
        type,
        cardStatus: card.status,
        customerStatus: subject.customerStatus ?? "unknown",
        accountStatus: account.status,
        available: ledger.balance(account.id).available,
        amount: request.amount,
        fees: request.fees + programFeeOn(type, program, request.amount),
        channel: request.channel,
        mcc: request.mcc,
        merchant: request.merchant,
        controls: card.controls,
        spent: type === "capture" ? await spentPerInterval(tx, card, now) : {},
      });
      if (pre.outcome === "drop") {
        // A repeat of a request taken before the card stopped is still that authorization.
        const repeated = request.reference && (await findByNetworkReference(tx, scope, card.id, request.reference));
        if (repeated) return repeated;
        throw dropped(card.id, pre.reason);
      }
      const fresh = newRow(scope, card, program, type, request, {
        timeoutDefault: subject.timeoutDefault ?? "decline",
        standIn: standInInForce(program.stand_in, subject.webhookStandIn),
      });
      const domain = toDomain(fresh);
      const askedAt = Math.min(now, request.arrivedAt ?? now);
      const step =
        pre.outcome === "decline"
          ? declineByService(domain, pre.reason, pre.detail)
          : tooLateToAsk(askedAt, now)
            ? decideWithoutAsking(
                domain,
                askedAt,
                platformCheckAnswer(fresh, account, card.card_holder_name),
                await standInFor(tx, fresh, now),
              )
            : askReceiver(domain, askedAt);
      const taken = await carryOut(tx, scope, fresh, step, { ledger, isNew: true, answerTo: ctx.answerTo });
      await recordIdempotentEffect(tx, { authorization: taken.id });
      return taken;
    })
    .catch(async (error: unknown) => {
      // A repeat, or a request with the same reference inserted at the same moment: that one stands (this one
      // rolled back). Without a reference of the request's own, the random one drawn for it clashed: draw again.
      if (!networkReferenceTaken(error)) throw error;
      if (!request.reference) return takeRequest(ctx, scope, cardId, type, request, timing);
      const standing = await findByNetworkReference(ctx.db, scope, cardId, request.reference);
      if (!standing) throw error;
      return standing;
    });
}

/** Runs a transition on an existing authorization, locked; an illegal one is a 422 naming the state. */
async function transition(
  ctx: NetworkContext,
  scope: Scope,
  id: string,
  next: (
    tx: Queryable,
    row: AuthorizationRow,
  ) => Promise<{ step: Step; ledger?: Awaited<ReturnType<typeof openLedger>> }>,
) {
  const row = await ctx.db.tx(async (tx) => {
    const current = await findAuthorization(tx, scope, id, true);
    if (!current) throw notFound("Card authorization", id);
    try {
      const { step, ledger } = await next(tx, current);
      return await carryOut(tx, scope, current, step, { ledger, answerTo: ctx.answerTo });
    } catch (error) {
      if (error instanceof IllegalTransition)
        throw stateConflict(
          `Card authorization ${id} is ${current.status}${current.type === "check" ? " (a check)" : ""}: ${error.message}`,
        );
      throw error;
    }
  });
  return row;
}

/**
 * The network changes the amount of an approved capture: the increase is held and the receiver asked. The 4-second
 * window runs from `arrivedAt` (when the network's request reached the platform), as a new authorization's does.
 */
export function requestAmountChange(
  ctx: NetworkContext,
  scope: Scope,
  id: string,
  update: { amount: number; fees: number },
  arrivedAt?: number,
): Promise<AuthorizationRow> {
  return transition(ctx, scope, id, async (tx, row) => {
    const domain = toDomain(row);
    if (domain.status !== "approved" || domain.type !== "capture")
      return { step: requestAmountUpdate(domain, update, 0, 0) };
    const ledger = await openLedger(tx, scope, { funded: [row.account_id] }, createWriteBatch());
    const now = ctx.now?.() ?? Date.now();
    const askedAt = Math.min(now, arrivedAt ?? now);
    return { step: requestAmountUpdate(domain, update, askedAt, ledger.balance(row.account_id).available), ledger };
  });
}

/** The network reverses an approved capture. */
export function requestReversal(ctx: NetworkContext, scope: Scope, id: string): Promise<AuthorizationRow> {
  return transition(ctx, scope, id, async (_tx, row) => ({ step: reverse(toDomain(row)) }));
}
