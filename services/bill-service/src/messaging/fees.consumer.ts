import type { Logger } from "pino";
import { handleOnce, type Bus } from "@cardhold/bus";
import { feeCreatedMessage, TOPICS } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { insertProjectedFee } from "../store/fees.store";
import { SCHEMA } from "../store/payments.store";

const CONSUMER = "bill-service.fees";

/** fees.v1 → the local copy of the engine's fees, which the payment configuration names and bill payments charge. */
export function subscribeToFees(db: Db, bus: Bus, logger: Logger) {
  return bus.subscribe({
    group: CONSUMER,
    topics: [TOPICS.fees],
    handler: async (message) => {
      const parsed = feeCreatedMessage.safeParse(message.value);
      if (!parsed.success) {
        logger.error({ messageId: message.id }, "skipping malformed fees.v1 message");
        return;
      }
      const { businessId, mode, data } = parsed.data;
      await handleOnce(db, SCHEMA, CONSUMER, message, (tx) => insertProjectedFee(tx, { businessId, mode }, data));
    },
  });
}
