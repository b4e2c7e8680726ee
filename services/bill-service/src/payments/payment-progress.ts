import type { Logger } from "pino";
import { enqueue, type OutgoingMessage } from "@cardhold/bus";
import type { Db, Queryable } from "@cardhold/db";
import { newId } from "@cardhold/platform";
import { stateOf, type PaymentRow } from "../domain/payment-record";
import { transition, type PaymentInput, type RecheckSchedule } from "../domain/payment-state";
import { debitCommand, paymentEvent, refundCommand } from "../messaging/outgoing";
import { lockPayment, savePaymentState, SCHEMA } from "../store/payments.store";

export type Applied =
  | { kind: "moved"; row: PaymentRow }
  | { kind: "ignored"; why: string }
  /** The payment changed since the caller read it (another worker, a ledger result): the input is dropped. */
  | { kind: "stale" };

/** What to do once a transition committed: publish its messages, let the worker and waiting requests know. */
export interface ProgressSignals {
  wakeRelay(): void;
  wakeWorker(): void;
  changed(paymentId: string): void;
}

export interface PaymentProgress {
  /** Applies an input to a payment locked in the caller's transaction; state and messages commit together. */
  applyLocked(tx: Queryable, row: PaymentRow, input: PaymentInput): Promise<Applied>;
  /** Applies an input in a transaction of its own, only if the payment is still at the version the caller read. */
  apply(row: PaymentRow, input: PaymentInput): Promise<Applied>;
  /** Call after the commit of a moved payment. */
  afterCommit(row: PaymentRow): void;
}

export function createPaymentProgress(
  db: Db,
  schedule: RecheckSchedule,
  signals: ProgressSignals,
  logger: Logger,
): PaymentProgress {
  const applyLocked = async (tx: Queryable, row: PaymentRow, input: PaymentInput): Promise<Applied> => {
    const next = transition(stateOf(row), input, schedule);
    if (next.kind === "ignored") {
      logger.debug({ paymentId: row.id, why: next.why }, "payment input ignored");
      return next;
    }
    const eventEffect = next.effects.find((e) => e.type === "publish-event");
    const eventId = eventEffect ? newId("event") : undefined;
    const events = eventId ? [...row.events, eventId] : row.events;
    const saved = await savePaymentState(
      tx,
      row,
      { state: next.state, events, nextCheckInMs: next.nextCheckInMs },
      new Date(),
    );
    if (!saved) return { kind: "stale" };
    const messages: OutgoingMessage[] = next.effects.map((effect) => {
      switch (effect.type) {
        case "send-debit":
          return debitCommand(saved);
        case "send-refund":
          return refundCommand(saved);
        case "publish-event":
          return paymentEvent(saved, effect.outcome, eventId!);
      }
    });
    if (messages.length > 0) await enqueue(tx, SCHEMA, messages);
    return { kind: "moved", row: saved };
  };

  const afterCommit = (row: PaymentRow) => {
    signals.wakeRelay();
    if (row.status === "processing") signals.wakeWorker();
    signals.changed(row.id);
  };

  return {
    applyLocked,
    afterCommit,
    async apply(row, input) {
      const applied = await db.tx(async (tx) => {
        const current = await lockPayment(tx, { businessId: row.business_id, mode: row.mode }, row.id);
        if (!current || current.version !== row.version) return { kind: "stale" } as const;
        return applyLocked(tx, current, input);
      });
      if (applied.kind === "moved") afterCommit(applied.row);
      return applied;
    },
  };
}
