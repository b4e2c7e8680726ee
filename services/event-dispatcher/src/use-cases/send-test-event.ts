import { z } from "zod";
import type { Mode } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { newId, notFound, recordIdempotentAnswer, validate } from "@cardhold/platform";
import { deliveredEnvelope } from "../domain/envelope";
import { testEventEnvelope } from "../domain/test-event";
import { deliveriesOf, findEvent, insertEventsWithDeliveries, toEventRecord } from "../store/events.store";
import { findWebhook } from "../store/webhooks.store";

const emptyBody = z.object({}).strict();

/**
 * POST /webhooks/:id/test: a `webhook.test` event of the caller's business and mode, with one delivery, to that
 * webhook alone — whatever its status (a created or disabled webhook can be checked before it is enabled again) and
 * the kinds it names. It is stored as events.v1 events are and sent by the delivery worker as any notification:
 * signed, every attempt recorded, retried until HTTP 200. The answer (202, the event with its pending delivery) is
 * recorded with it for an Idempotency-Key retry; the caller wakes the worker once it is committed. A webhook this
 * dispatcher does not know (another business's, deleted, or not yet announced on webhooks.v1) is a 404.
 */
export async function sendTestEvent(
  db: Db,
  scope: { businessId: string; mode: Mode },
  webhookId: string,
  body: unknown,
) {
  validate(emptyBody, body ?? {});
  return db.tx(async (tx) => {
    if (!(await findWebhook(tx, scope, webhookId))) throw notFound("Webhook", webhookId);
    const id = newId("event");
    const envelope = testEventEnvelope(webhookId, id, new Date());
    const event = {
      id,
      businessId: scope.businessId,
      mode: scope.mode,
      kind: envelope.event as string,
      resourceId: webhookId,
      envelope: deliveredEnvelope(envelope, scope.mode),
      policy: "notification" as const,
      answerBy: null,
    };
    await insertEventsWithDeliveries(tx, [{ event, webhookIds: [webhookId] }]);
    const stored = (await findEvent(tx, scope, id))!;
    const answer = {
      code: "success" as const,
      data: { ...toEventRecord(stored), deliveries: await deliveriesOf(tx, id) },
    };
    await recordIdempotentAnswer(tx, 202, answer);
    return answer;
  });
}
