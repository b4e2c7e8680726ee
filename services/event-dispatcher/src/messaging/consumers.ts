import type { Logger } from "pino";
import { handleOnce, type Bus } from "@cardhold/bus";
import { eventPublishedMessage, TOPICS, webhookChangedMessage } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { deleteWebhook, insertEvent, SCHEMA, upsertWebhook } from "../store/dispatcher.store";

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

/** events.v1 → the event log, from which deliveries are made. */
export function subscribeToEvents(db: Db, bus: Bus, logger: Logger) {
  const consumer = "event-dispatcher.events";
  return bus.subscribe({
    group: consumer,
    topics: [TOPICS.events],
    handler: async (message) => {
      const parsed = eventPublishedMessage.safeParse(message.value);
      if (!parsed.success) return logger.error({ messageId: message.id }, "skipping malformed events.v1 message");
      await handleOnce(db, SCHEMA, consumer, message, (tx) => insertEvent(tx, parsed.data));
    },
  });
}
