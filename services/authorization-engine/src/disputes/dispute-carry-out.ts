import { enqueue } from "@cardhold/bus";
import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import type { Dispute, DisputeEffect, DisputeStep } from "../domain/dispute";
import { eventFor } from "../authorizations/events";
import { SCHEMA, systemAccount } from "../store/accounts.store";
import { insertDispute, updateDispute, type DisputeRow } from "../store/disputes.store";
import { openLedger, type Ledger, type Movement } from "../store/ledger.store";
import { toDisputeRecord } from "./dispute-records";

/** The state-machine view of a stored dispute. */
export const toDisputeDomain = (row: DisputeRow): Dispute => ({
  status: row.status,
  amount: row.amount,
  provisionalCredit: row.provisional_credit,
  owed: row.owed,
});

/** The accounts a dispute's money moves between: the cardholder's, and the disputes and network-clearing accounts. */
export interface DisputeBooks {
  ledger: Ledger;
  disputes: string;
  clearing: string;
}

/** Opens the ledger on the dispute's account (locked) and its currency's disputes and network-clearing accounts. */
export async function openDisputeBooks(tx: Queryable, scope: Scope, row: DisputeRow): Promise<DisputeBooks> {
  const disputes = await systemAccount(tx, scope, "disputes", row.currency);
  const clearing = await systemAccount(tx, scope, "network-clearing", row.currency);
  const ledger = await openLedger(tx, scope, { funded: [row.account_id], system: [disputes, clearing] });
  return { ledger, disputes, clearing };
}

function movementOf(row: DisputeRow, books: DisputeBooks, e: Exclude<DisputeEffect, { kind: "emit" }>): Movement {
  const base = { reference: row.id, amount: e.amount, currency: row.currency };
  switch (e.kind) {
    case "credit-provisionally":
      return {
        ...base,
        kind: "dispute-credit",
        description: `dispute ${row.id} provisional credit`,
        from: books.disputes,
        to: row.account_id,
      };
    case "reverse-provisional-credit":
      return {
        ...base,
        kind: "dispute-credit-reversal",
        description: `dispute ${row.id} provisional credit taken back`,
        from: row.account_id,
        to: books.disputes,
      };
    case "recover-provisional-credit":
      return {
        ...base,
        kind: "chargeback",
        description: `dispute ${row.id} won: chargeback`,
        from: books.clearing,
        to: books.disputes,
      };
    case "credit-chargeback":
      return {
        ...base,
        kind: "chargeback",
        description: `dispute ${row.id} won: chargeback`,
        from: books.clearing,
        to: row.account_id,
      };
  }
}

/**
 * Carries out a dispute step inside the caller's transaction: its ledger movements (through `books`, which a step
 * that moves money needs), the dispute's new state (`row` holds the rest of it, e.g. new evidence) and its events
 * through the outbox, so the change and its events commit together.
 */
export async function carryOutDispute(
  tx: Queryable,
  scope: Scope,
  row: DisputeRow,
  step: DisputeStep,
  opts: { books?: DisputeBooks; isNew?: boolean } = {},
): Promise<DisputeRow> {
  for (const e of step.effects) {
    if (e.kind === "emit") continue;
    if (!opts.books) throw new Error(`dispute ${row.id}: ${e.kind} needs the ledger`);
    await opts.books.ledger.move(movementOf(row, opts.books, e));
  }
  const next: DisputeRow = {
    ...row,
    status: step.dispute.status,
    amount: step.dispute.amount,
    provisional_credit: step.dispute.provisionalCredit,
    owed: step.dispute.owed,
  };
  const saved = opts.isNew ? await insertDispute(tx, scope, next) : await updateDispute(tx, scope, next);
  const record = toDisputeRecord(saved);
  const events = step.effects.flatMap((e) =>
    e.kind === "emit"
      ? [eventFor(scope, e.event, record, saved.id, undefined, saved.webhook_id ?? undefined).message]
      : [],
  );
  await enqueue(tx, SCHEMA, events);
  return saved;
}
