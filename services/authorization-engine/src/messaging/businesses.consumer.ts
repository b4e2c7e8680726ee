import type { Logger } from "pino";
import { handleOnce, type Bus } from "@cardhold/bus";
import { businessCreatedMessage, CURRENCIES, TOPICS } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { SCHEMA, settlementAccount } from "../store/accounts.store";

/** businesses.v1 → each new business gets its default (settlement) account per currency, in test and live mode. */
export function subscribeToBusinesses(db: Db, bus: Bus, logger: Logger) {
  const consumer = "authorization-engine.businesses";
  return bus.subscribe({
    group: consumer,
    topics: [TOPICS.businesses],
    handler: async (message) => {
      const parsed = businessCreatedMessage.safeParse(message.value);
      if (!parsed.success) return logger.error({ messageId: message.id }, "skipping malformed businesses.v1 message");
      const businessId = parsed.data.data.id;
      await handleOnce(db, SCHEMA, consumer, message, async (tx) => {
        for (const mode of ["test", "live"]) {
          for (const currency of CURRENCIES) await settlementAccount(tx, { businessId, mode }, currency);
        }
      });
    },
  });
}
