import type { Logger } from "pino";
import { handleOnce, type Bus, type OutboxRelay } from "@cardhold/bus";
import { businessCreatedMessage, TOPICS, type Mode } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { newId } from "@cardhold/platform";
import { insertDefaultWebhook, SCHEMA } from "../store/webhooks.store";
import { announce } from "../webhooks";

const CONSUMER = "webhook-registry.businesses";
const MODES: Mode[] = ["test", "live"];

/** A new business gets its default webhook in both modes, announced on webhooks.v1. */
export function subscribeToBusinesses(db: Db, bus: Bus, relay: Pick<OutboxRelay, "wake">, logger: Logger) {
  return bus.subscribe({
    group: CONSUMER,
    topics: [TOPICS.businesses],
    handler: async (message) => {
      const parsed = businessCreatedMessage.safeParse(message.value);
      if (!parsed.success) {
        logger.error({ messageId: message.id }, "skipping malformed businesses.v1 message");
        return;
      }
      const business = parsed.data.data;
      await handleOnce(db, SCHEMA, CONSUMER, message, async (tx) => {
        for (const mode of MODES) {
          const webhook = await insertDefaultWebhook(tx, {
            id: newId("webhook"),
            businessId: business.id,
            mode,
            url: business.defaultWebhook.url,
            signingKey: business.defaultWebhook.signingKey,
          });
          if (webhook) await announce(tx, webhook);
        }
      });
      relay.wake();
    },
  });
}
