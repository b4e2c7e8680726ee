import { handOverAfterCommit, outboxInsert, type OutgoingMessage } from "@cardhold/bus";
import { createWriteBatch, type TxClient } from "@cardhold/db";
import { newId } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import type { Effect, Step } from "../domain/authorization";
import { toAuthorizationEventRecord, toTransactionRecord } from "./authorization-records";
import { SCHEMA, systemAccount, type AccountRow } from "../store/accounts.store";
import {
  authorizationInsert,
  authorizationUpdate,
  fromDomain,
  type AuthorizationRow,
} from "../store/authorizations.store";
import { openLedger, type Ledger } from "../store/ledger.store";
import { transactionInsert, type TransactionRow } from "../store/transactions.store";
import { eventFor } from "./events";

const FUNDING_EFFECTS = new Set<Effect["kind"]>(["hold", "release-hold", "capture-hold", "refund"]);

/** The accounts a step moves money on: the funding account, and the settlement account for a reversal. */
function fundedAccounts(row: AuthorizationRow, effects: Effect[]): string[] {
  const ids = new Set<string>();
  for (const e of effects) {
    if (FUNDING_EFFECTS.has(e.kind)) ids.add(row.account_id);
    if (e.kind === "credit-settlement") ids.add(row.settlement_account_id);
  }
  return [...ids];
}

async function moveMoney(ledger: Ledger, row: AuthorizationRow, clearing: string, e: Effect): Promise<void> {
  const base = { reference: row.id };
  switch (e.kind) {
    case "hold":
      return ledger.hold(row.account_id, e.amount);
    case "release-hold":
      return ledger.release(row.account_id, e.amount);
    case "capture-hold":
      await ledger.move({
        ...base,
        kind: "capture",
        description: `card ${row.card_id} capture`,
        from: row.account_id,
        to: clearing,
        amount: e.amount,
        capturing: true,
      });
      return;
    case "refund":
      await ledger.move({
        ...base,
        kind: "refund",
        description: `card ${row.card_id} amount lowered`,
        from: clearing,
        to: row.account_id,
        amount: e.amount,
      });
      return;
    case "credit-settlement":
      await ledger.move({
        ...base,
        kind: "reversal",
        description: `card ${row.card_id} reversal`,
        from: clearing,
        to: row.settlement_account_id,
        amount: e.amount,
      });
      return;
    default:
      return;
  }
}

export interface CarryOutOptions {
  /** A ledger the caller opened (and whose accounts it locked) in this transaction. */
  ledger?: Ledger;
  /** Account rows the caller locked in this transaction. */
  lockedAlready?: AccountRow[];
  /** The authorization is not stored yet: it is inserted in its state after the step (one write, not two). */
  isNew?: boolean;
  /**
   * The step's writes stay in the ledger's batch: the caller carries out other steps into the same ledger, then settles
   * it and flushes the batch once (timeout defaults applied together). Needs `ledger`; not with `isNew`.
   */
  deferWrites?: boolean;
  /** Where the dispatcher posts the receiver's answer to a decision event the step emits (NetworkContext.answerTo). */
  answerTo?: string;
}

/**
 * Carries out a state-machine step inside the caller's transaction: the ledger movements, the card transactions, the
 * new state of the authorization and its events (through the outbox), in the order the step lists them. A step that
 * asks the receiver records its event as the decision the answer must belong to. Every write of the step goes to the
 * database in one statement, sent with the transaction's next one (its COMMIT when the step is its last work).
 */
export async function carryOut(
  tx: TxClient,
  scope: Scope,
  row: AuthorizationRow,
  step: Step,
  opts: CarryOutOptions = {},
): Promise<AuthorizationRow> {
  const { ledger, lockedAlready } = opts;
  if (opts.deferWrites && (!ledger?.writes || opts.isNew)) throw new Error("deferred writes need a batched ledger");
  const funded = fundedAccounts(row, step.effects);
  // A hold or a release moves nothing to or from the network's side: only movements need its account.
  const moves = step.effects.some(
    (e) => e.kind === "capture-hold" || e.kind === "refund" || e.kind === "credit-settlement",
  );
  const clearing = moves ? await systemAccount(tx, scope, "network-clearing", row.currency) : "";
  const writes = ledger?.writes ?? createWriteBatch();
  const books =
    ledger ??
    (funded.length > 0
      ? await openLedger(tx, scope, { funded, system: moves ? [clearing] : [], lockedAlready }, writes)
      : undefined);
  // A ledger the caller opened for a hold may now have to move money to the network's side (a default approval).
  if (moves) books?.addSystem(clearing);
  const transactions: TransactionRow[] = [];
  for (const e of step.effects) {
    if (FUNDING_EFFECTS.has(e.kind) || e.kind === "credit-settlement") await moveMoney(books!, row, clearing, e);
    if (e.kind === "create-transaction") {
      const transaction: TransactionRow = {
        id: newId("transaction"),
        authorization_id: row.id,
        card_id: row.card_id,
        customer_id: row.customer_id,
        type: e.type,
        channel: row.channel,
        currency: row.currency,
        amount: e.amount,
        fees: e.fees,
        mcc: row.mcc,
        network_data: row.network_data,
        created_at: new Date(),
      };
      writes.defer(transactionInsert(scope, transaction));
      transactions.push(transaction);
    }
  }
  if (!opts.deferWrites) books?.settle();
  const emitted = step.effects.flatMap((e) => (e.kind === "emit" ? [e.event] : []));
  const asks = step.effects.some((e) => e.kind === "await-decision");
  // The decision event id is known before the row is saved, so the answer can be matched to this very question.
  const events = emitted.map((kind) => ({ kind, id: newId("event") }));
  const decisionEvent = asks ? events.find((e) => e.kind !== "card.authorization.closed")?.id : undefined;
  const webhook = row.webhook_id ?? undefined;
  const now = new Date();
  // First decided now: it was pending (new, or awaiting its first answer) and is no longer.
  const decidedNow = row.status === "pending" && step.authorization.status !== "pending";
  const saved: AuthorizationRow = {
    ...fromDomain(row, step.authorization),
    decision_event_id: decisionEvent ?? (asks ? row.decision_event_id : null),
    updated_at: now,
    decided_at: row.decided_at ?? (decidedNow ? now : null),
  };
  if (!opts.isNew) writes.defer(authorizationUpdate(saved));
  const messages: OutgoingMessage[] = [
    ...events.map((e) => {
      const answerBy = e.id === decisionEvent ? (saved.decision_due_at ?? undefined) : undefined;
      const decision = answerBy && { answerBy, answerTo: opts.answerTo };
      return eventFor(scope, e.kind, toAuthorizationEventRecord(saved), saved.id, e.id, webhook, decision).message;
    }),
    ...transactions.map(
      (t) => eventFor(scope, "card.transaction.created", toTransactionRecord(t), saved.id, undefined, webhook).message,
    ),
  ];
  // A new authorization's first event opens its key: it may go straight to a dispatcher (see splitForLane).
  if (opts.isNew) for (const m of messages) m.opensKey = true;
  const outbox = messages.length > 0 ? outboxInsert(SCHEMA, messages) : undefined;
  if (outbox) writes.defer(outbox);
  // A reference taken meanwhile fails the insert, and so the transaction (see networkReferenceTaken).
  if (opts.isNew) writes.defer(authorizationInsert(saved));
  if (outbox) handOverAfterCommit(tx, SCHEMA, outbox);
  // Nothing reads the writes' result: they go with the transaction's next statement, usually its COMMIT.
  if (!opts.deferWrites) writes.sendWithNext(tx);
  return saved;
}
