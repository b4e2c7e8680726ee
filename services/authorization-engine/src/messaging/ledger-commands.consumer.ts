import type { Logger } from "pino";
import { handleOnce, type Bus, type OutboxRelay } from "@cardhold/bus";
import { ledgerCommandMessage, TOPICS } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { handleLedgerCommand } from "../ledger/ledger-commands";
import { SCHEMA } from "../store/accounts.store";

/** ledger-commands.v1 → debits and refunds for the bill-service, answered on ledger-results.v1. */
export function subscribeToLedgerCommands(deps: {
  db: Db;
  bus: Bus;
  logger: Logger;
  relay: Pick<OutboxRelay, "wake">;
}) {
  const consumer = "authorization-engine.ledger-commands";
  return deps.bus.subscribe({
    group: consumer,
    topics: [TOPICS.ledgerCommands],
    handler: async (message) => {
      const parsed = ledgerCommandMessage.safeParse(message.value);
      if (!parsed.success)
        return deps.logger.error({ messageId: message.id }, "skipping malformed ledger-commands.v1 message");
      await handleOnce(deps.db, SCHEMA, consumer, message, async (tx) => {
        await handleLedgerCommand(tx, parsed.data);
      });
      deps.relay.wake();
    },
  });
}
