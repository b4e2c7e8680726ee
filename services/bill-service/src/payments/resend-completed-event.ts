/**
 * `POST /payments/:id/resend-events/payment-completed {}`: announces a successful payment's completion again. The
 * event is the kind first sent (`payment.bill.completed`, a payout's `payment.payout.completed`) with the payment as it is now, under a new event id (the
 * event-dispatcher delivers each event id once; `POST /events/:id/retry` sends one event again), listed in the
 * payment's `events`. It goes out through the outbox, like the first.
 */
import { enqueue } from "@cardhold/bus";
import type { Db } from "@cardhold/db";
import {
  newId,
  notFound,
  recordIdempotentAnswer,
  stateConflict,
  validate,
  type RequestContext,
} from "@cardhold/platform";
import { toPaymentRecord, type PaymentRecord } from "../domain/payment-record";
import { paymentEvent } from "../messaging/outgoing";
import { addPaymentEvent, lockPayment, SCHEMA } from "../store/payments.store";
import { noOptionsBody } from "./no-options-body";

type Scope = Pick<RequestContext, "businessId" | "mode">;

export function createCompletedEventResend(db: Db, wakeRelay: () => void) {
  return async function resendCompletedEvent(scope: Scope, id: string, body: unknown): Promise<PaymentRecord> {
    validate(noOptionsBody, body ?? {});
    const payment = await db.tx(async (tx) => {
      const row = await lockPayment(tx, scope, id);
      if (!row) throw notFound("Payment", id);
      if (row.status !== "successful")
        throw stateConflict(`Payment ${id} is ${row.status}: only a successful payment has a completed event`);
      const eventId = newId("event");
      const saved = (await addPaymentEvent(tx, scope, id, eventId, new Date()))!;
      await enqueue(tx, SCHEMA, [paymentEvent(saved, "completed", eventId)]);
      const record = toPaymentRecord(saved);
      // A repeat with this Idempotency-Key answers this and sends nothing more.
      await recordIdempotentAnswer(tx, 200, { code: "success", data: record });
      return record;
    });
    wakeRelay();
    return payment;
  };
}
