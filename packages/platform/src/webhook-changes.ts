import type { Logger } from "pino";
import { handleOnce, type Bus } from "@cardhold/bus";
import { TOPICS, webhookChangedMessage, type WebhookChangedMessage } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";

export interface WebhookChangeHandlers {
  /** Consumer group, also the inbox's consumer name. */
  group: string;
  /** The schema whose inbox records the handled messages. */
  schema: string;
  upsert(tx: Queryable, change: WebhookChangedMessage): Promise<void>;
  remove(tx: Queryable, webhookId: string): Promise<void>;
  /** After a change committed (caches of the copy drop what they hold). */
  changed?(): void;
}

/** webhooks.v1 into a service's own copy of the webhooks: each change once (inbox); a null value deletes. */
export function subscribeToWebhookChanges(deps: { db: Db; bus: Bus; logger: Logger }, handlers: WebhookChangeHandlers) {
  const { db, bus, logger } = deps;
  return bus.subscribe({
    group: handlers.group,
    topics: [TOPICS.webhooks],
    handler: async (message) => {
      if (message.value === null) {
        await handleOnce(db, handlers.schema, handlers.group, message, (tx) => handlers.remove(tx, message.key));
        return handlers.changed?.();
      }
      const parsed = webhookChangedMessage.safeParse(message.value);
      if (!parsed.success) return logger.error({ messageId: message.id }, "skipping malformed webhooks.v1 message");
      await handleOnce(db, handlers.schema, handlers.group, message, (tx) => handlers.upsert(tx, parsed.data));
      handlers.changed?.();
    },
  });
}
