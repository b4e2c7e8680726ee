import type { Logger } from "pino";
import { handleOnce, type Bus } from "@cardhold/bus";
import { eventPublishedMessage, TOPICS, webhookChangedMessage } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { enqueueDecision } from "../delivery/delivery.worker";
import { deliveryPolicy } from "../domain/delivery-policy";
import { routeEvent } from "../domain/routing";
import { insertEventWithDeliveries } from "../store/events.store";
import { deleteWebhook, SCHEMA, upsertWebhook, webhooksOf } from "../store/webhooks.store";

/** webhooks.v1 → the routing table (a null value is a tombstone: the webhook was deleted). */
export function subscribeToWebhooks(db: Db, bus: Bus, logger: Logger) {
  const consumer = "event-dispatcher.webhooks";
  return bus.subscribe({
    group: consumer,
    topics: [TOPICS.webhooks],
    handler: async (message) => {
      if (message.value === null) {
        await handleOnce(db, SCHEMA, consumer, message, (tx) => deleteWebhook(tx, message.key));
        return;
      }
      const parsed = webhookChangedMessage.safeParse(message.value);
      if (!parsed.success) return logger.error({ messageId: message.id }, "skipping malformed webhooks.v1 message");
      await handleOnce(db, SCHEMA, consumer, message, (tx) => upsertWebhook(tx, parsed.data));
    },
  });
}

/**
 * events.v1 → the event log plus one delivery per webhook the routing table names now; the delivery worker takes
 * it from there. A decision nobody can answer is answered at once with `no-webhook`.
 */
export function subscribeToEvents(db: Db, bus: Bus, logger: Logger, wakeWorker: () => void, wakeRelay: () => void) {
  const consumer = "event-dispatcher.events";
  return bus.subscribe({
    group: consumer,
    topics: [TOPICS.events],
    handler: async (message) => {
      const parsed = eventPublishedMessage.safeParse(message.value);
      if (!parsed.success) return logger.error({ messageId: message.id }, "skipping malformed events.v1 message");
      const { businessId, mode, data } = parsed.data;
      const { envelope, resourceId } = data;
      const policy = deliveryPolicy(envelope.event, envelope.data);
      let unanswerable = false;
      await handleOnce(db, SCHEMA, consumer, message, async (tx) => {
        const webhooks = routeEvent(envelope.event, await webhooksOf(tx, businessId, mode));
        const event = {
          id: envelope.metadata.event, businessId, mode, kind: envelope.event, resourceId,
          // The producer's own bytes (key order included), not the validated copy: this is what gets signed.
          envelope: JSON.stringify((message.value as { data: { envelope: unknown } }).data.envelope),
          policy: policy.kind,
        };
        const inserted = await insertEventWithDeliveries(tx, event, webhooks.map((w) => w.id));
        if (inserted && webhooks.length === 0 && policy.kind === "decision") {
          unanswerable = true;
          await enqueueDecision(tx, { eventId: event.id, resourceId, webhookId: null, businessId, mode }, {
            httpStatus: null, body: null, latencyMs: null, error: "no-webhook",
          });
        }
      });
      if (unanswerable) wakeRelay();
      else wakeWorker();
    },
  });
}
