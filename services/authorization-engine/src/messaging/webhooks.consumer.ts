import type { Logger } from "pino";
import type { Bus } from "@cardhold/bus";
import type { Db } from "@cardhold/db";
import { subscribeToWebhookChanges } from "@cardhold/platform";
import { SCHEMA } from "../store/accounts.store";
import { deleteWebhook, upsertWebhook } from "../store/webhooks.store";

/** webhooks.v1 → which webhook answers decisions for each business and mode, its timeoutDefault and stand-in rules. */
export function subscribeToWebhooks(db: Db, bus: Bus, logger: Logger) {
  return subscribeToWebhookChanges(
    { db, bus, logger },
    {
      group: "authorization-engine.webhooks",
      schema: SCHEMA,
      upsert: (tx, change) => upsertWebhook(tx, change.businessId, change.mode, change.data),
      remove: deleteWebhook,
    },
  );
}
