import type { Logger } from "pino";
import type { Bus } from "@cardhold/bus";
import { subscribeToWebhookChanges, type SigningKeySealer } from "@cardhold/platform";
import { eventPublishedMessage, TOPICS } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { enqueueDecision } from "../delivery/delivery.worker";
import { deliveryPolicy } from "../domain/delivery-policy";
import { deliveredEnvelope } from "../domain/envelope";
import { routeEventTo, type RouteCandidate } from "../domain/routing";
import { insertEventWithDeliveries } from "../store/events.store";
import { deleteWebhook, SCHEMA, upsertWebhook, webhooksOf } from "../store/webhooks.store";

/**
 * webhooks.v1 → the routing table (a null value is a tombstone: the webhook was deleted). The key is stored sealed:
 * as the message carries it, or sealed here when a message from before sealing carries it in plain.
 */
export function subscribeToWebhooks(db: Db, bus: Bus, logger: Logger, keys: SigningKeySealer) {
  return subscribeToWebhookChanges({ db, bus, logger }, {
    group: "event-dispatcher.webhooks",
    schema: SCHEMA,
    upsert: async (tx, change) => {
      const { id, sealedSigningKey, signingKey } = change.data;
      const sealed = sealedSigningKey ?? (signingKey === undefined ? undefined : keys.seal(id, signingKey));
      if (sealed === undefined) return logger.error({ webhookId: id }, "skipping webhooks.v1 message without a signing key");
      await upsertWebhook(tx, change, sealed);
    },
    remove: deleteWebhook,
  });
}

/**
 * events.v1 → the event log plus one delivery per webhook the routing table names now; the delivery worker takes
 * it from there. A batch is stored in one transaction (one commit), which is what bounds ingestion. A decision
 * nobody can answer is answered at once with `no-webhook`. No inbox: an event is stored once by its id, so a message
 * consumed again changes nothing.
 */
export function subscribeToEvents(db: Db, bus: Bus, logger: Logger, wakeWorker: () => void, wakeRelay: () => void) {
  const consumer = "event-dispatcher.events";
  return bus.subscribe({
    group: consumer,
    topics: [TOPICS.events],
    batchHandler: async (messages) => {
      let decisionsAnswered = false;
      await db.tx(async (tx) => {
        const routingTables = new Map<string, RouteCandidate[]>();
        for (const message of messages) {
          const parsed = eventPublishedMessage.safeParse(message.value);
          if (!parsed.success) {
            logger.error({ messageId: message.id }, "skipping malformed events.v1 message");
            continue;
          }
          const { businessId, mode, data } = parsed.data;
          const tableKey = `${businessId}:${mode}`;
          const table = routingTables.get(tableKey) ?? (await webhooksOf(tx, businessId, mode));
          routingTables.set(tableKey, table);
          const policy = deliveryPolicy(data.envelope.event, data.envelope.data);
          const webhooks = routeEventTo(data.envelope.event, table, data.webhookId);
          const event = {
            id: data.envelope.metadata.event, businessId, mode, kind: data.envelope.event, resourceId: data.resourceId,
            // The producer's own fields (key order included), not the validated copy, plus the mode: what gets signed.
            envelope: deliveredEnvelope((message.value as { data: { envelope: Record<string, unknown> } }).data.envelope, mode),
            policy: policy.kind,
            answerBy: data.answerBy ? new Date(data.answerBy) : null,
          };
          const inserted = await insertEventWithDeliveries(tx, event, webhooks.map((w) => w.id));
          if (inserted && webhooks.length === 0 && policy.kind === "decision") {
            decisionsAnswered = true;
            await enqueueDecision(tx, { eventId: event.id, resourceId: event.resourceId, webhookId: null, businessId, mode }, {
              httpStatus: null, body: null, latencyMs: null, error: "no-webhook",
            });
          }
        }
      });
      if (decisionsAnswered) wakeRelay();
      wakeWorker();
    },
  });
}
