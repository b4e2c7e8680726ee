import type { Logger } from "pino";
import { handleOnce, type Bus } from "@cardhold/bus";
import { TOPICS, webhookChangedMessage } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { SCHEMA } from "../store/accounts.store";
import { deleteWebhook, upsertWebhook } from "../store/webhooks.store";

/** webhooks.v1 → which webhook answers decisions for each business and mode, and its timeoutDefault. */
export function subscribeToWebhooks(db: Db, bus: Bus, logger: Logger) {
  const consumer = "authorization-engine.webhooks";
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
      const { businessId, mode, data } = parsed.data;
      await handleOnce(db, SCHEMA, consumer, message, (tx) => upsertWebhook(tx, businessId, mode, data));
    },
  });
}
