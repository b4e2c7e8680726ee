import { disputeRequestSchema, disputeUpdateSchema } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { conflict, newId, notFound, recordIdempotentAnswer, stateConflict, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import {
  admitDispute,
  closeDispute,
  IllegalDisputeTransition,
  loseDispute,
  openDispute,
  updateEvidence,
  winDispute,
  type Dispute,
  type DisputeStep,
} from "../domain/dispute";
import { getProgram } from "../programs/programs";
import { findAuthorization } from "../store/authorizations.store";
import { disputesOfAuthorization, findDispute, type DisputeRow } from "../store/disputes.store";
import { carryOutDispute, openDisputeBooks, toDisputeDomain } from "./dispute-carry-out";
import { toDisputeRecord } from "./dispute-records";

const movesMoney = (step: DisputeStep) => step.effects.some((e) => e.kind !== "emit");

/**
 * Opens a dispute of a card authorization (`source`), within the guard rails of domain/dispute.ts admitDispute: one
 * open dispute per authorization (409), a decided capture with money debited, inside its program's window, for no more
 * than is left to dispute (422). With the program's provisional credit, the amount is credited to the cardholder's
 * account at once.
 */
export async function createDispute(db: Db, scope: Scope, body: unknown) {
  const request = validate(disputeRequestSchema, body);
  return db.tx(async (tx) => {
    // Locked: a second dispute of the same authorization waits here, then finds this one open.
    const authorization = await findAuthorization(tx, scope, request.source, true);
    if (!authorization) throw notFound("Card authorization", request.source);
    const history = await disputesOfAuthorization(tx, scope, authorization.id);
    if (history.open)
      throw conflict(`Card authorization ${authorization.id} already has an open dispute, ${history.open}`);
    const program = await getProgram(tx, scope, authorization.program_id);
    const admission = admitDispute(
      { ...authorization, createdAt: authorization.created_at.getTime() },
      { amount: request.amount, now: Date.now(), windowDays: program.dispute_window_days, alreadyWon: history.won },
    );
    if (!admission.ok)
      throw stateConflict(`Card authorization ${authorization.id} cannot be disputed: ${admission.message}`);
    const step = openDispute(admission.amount, program.dispute_provisional_credit);
    const now = new Date();
    const row: DisputeRow = {
      id: newId("dispute"),
      authorization_id: authorization.id,
      card_id: authorization.card_id,
      customer_id: authorization.customer_id,
      account_id: authorization.account_id,
      reason: request.reason,
      text: request.text ?? null,
      documents: request.documents ?? [],
      user_id: request.user ?? null,
      status: step.dispute.status,
      amount: step.dispute.amount,
      currency: authorization.currency,
      provisional_credit: step.dispute.provisionalCredit,
      owed: step.dispute.owed,
      webhook_id: authorization.webhook_id,
      created_at: now,
      updated_at: now,
    };
    const books = movesMoney(step) ? await openDisputeBooks(tx, scope, row) : undefined;
    const record = toDisputeRecord(await carryOutDispute(tx, scope, row, step, { books, isNew: true }));
    await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
    return record;
  });
}

export async function getDispute(db: Queryable, scope: Scope, id: string): Promise<DisputeRow> {
  const row = await findDispute(db, scope, id);
  if (!row) throw notFound("Dispute", id);
  return row;
}

/** A transition of the dispute state machine, and whether it may move money (then it needs the ledger first). */
interface Transition {
  run: (d: Dispute, available: number) => DisputeStep;
  needsBooks: (d: Dispute) => boolean;
}

const TRANSITIONS = {
  updateEvidence: { run: updateEvidence, needsBooks: () => false },
  close: { run: closeDispute, needsBooks: (d) => d.provisionalCredit > 0 },
  win: { run: winDispute, needsBooks: () => true },
  lose: { run: loseDispute, needsBooks: (d) => d.provisionalCredit > 0 },
} satisfies Record<string, Transition>;

/**
 * Runs a transition on a dispute, locked, with `changes` (new evidence) applied; an illegal one is a 422 naming the
 * state. The available balance a transition reads is the cardholder's account's, locked in the same transaction.
 */
async function transition(
  db: Db,
  scope: Scope,
  id: string,
  { run, needsBooks }: Transition,
  changes: Partial<Pick<DisputeRow, "text" | "documents" | "user_id">> = {},
) {
  return db.tx(async (tx) => {
    const current = await findDispute(tx, scope, id, true);
    if (!current) throw notFound("Dispute", id);
    const dispute = toDisputeDomain(current);
    // A final dispute moves no money: the transition refuses it before any account is locked.
    const books =
      dispute.status === "open" && needsBooks(dispute) ? await openDisputeBooks(tx, scope, current) : undefined;
    const available = books?.ledger.balance(current.account_id).available ?? 0;
    const step = refusingIllegal(current, () => run(dispute, available));
    const record = toDisputeRecord(await carryOutDispute(tx, scope, { ...current, ...changes }, step, { books }));
    await recordIdempotentAnswer(tx, 200, { code: "success", data: record });
    return record;
  });
}

function refusingIllegal(current: DisputeRow, run: () => DisputeStep): DisputeStep {
  try {
    return run();
  } catch (error) {
    if (error instanceof IllegalDisputeTransition) throw stateConflict(`Dispute ${current.id}: ${error.message}`);
    throw error;
  }
}

/** New evidence: text, documents (the list replaces the old one) and user; nothing else changes. */
export function updateDisputeEvidence(db: Db, scope: Scope, id: string, body: unknown) {
  const update = validate(disputeUpdateSchema, body);
  const changes = {
    ...(update.text !== undefined && { text: update.text }),
    ...(update.documents !== undefined && { documents: update.documents }),
    ...(update.user !== undefined && { user_id: update.user }),
  };
  return transition(db, scope, id, TRANSITIONS.updateEvidence, changes);
}

/** The business withdraws the dispute; the body (`{}`) carries nothing. */
export const closeDisputeById = (db: Db, scope: Scope, id: string) => transition(db, scope, id, TRANSITIONS.close);

/** Test mode: the network decides the dispute for the cardholder, or against. */
export const simulateDisputeWon = (db: Db, scope: Scope, id: string) => transition(db, scope, id, TRANSITIONS.win);
export const simulateDisputeLost = (db: Db, scope: Scope, id: string) => transition(db, scope, id, TRANSITIONS.lose);
