import type { Logger } from "pino";
import { handleOnce, type Bus } from "@cardhold/bus";
import { ledgerResultMessage, TOPICS, type LedgerResultMessage } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { failpoint } from "@cardhold/platform";
import type { PaymentInput } from "../domain/payment-state";
import type { Applied, PaymentProgress } from "../payments/payment-progress";
import { lockPayment, SCHEMA } from "../store/payments.store";
import { parseCommandId } from "./outgoing";

const CONSUMER = "bill-service.ledger-results";

function inputOf(result: LedgerResultMessage["data"]): PaymentInput {
  if (result.command === "ledger.refund")
    return { type: "refund-result", succeeded: result.status === "succeeded", reason: result.failureReason };
  if (result.status === "succeeded") return { type: "debit-result", succeeded: true, account: result.account };
  return { type: "debit-result", succeeded: false, reason: result.failureReason ?? "debit-failed" };
}

/**
 * ledger-results.v1 → the payment's next state, once per message (inbox). Results of commands this service did not
 * send, or for payments it does not know, are skipped.
 */
export function subscribeToLedgerResults(db: Db, bus: Bus, progress: PaymentProgress, logger: Logger) {
  return bus.subscribe({
    group: CONSUMER,
    topics: [TOPICS.ledgerResults],
    handler: async (message) => {
      const parsed = ledgerResultMessage.safeParse(message.value);
      if (!parsed.success) {
        logger.error({ messageId: message.id }, "skipping malformed ledger-results.v1 message");
        return;
      }
      const { businessId, mode, data } = parsed.data;
      const command = parseCommandId(data.commandId);
      if (!command || command.command !== data.command) return;
      const outcome: { applied?: Applied } = {};
      await handleOnce(db, SCHEMA, CONSUMER, message, async (tx) => {
        const row = await lockPayment(tx, { businessId, mode }, command.paymentId);
        if (!row) {
          logger.warn({ commandId: data.commandId }, "ledger result for an unknown payment; skipped");
          return;
        }
        outcome.applied = await progress.applyLocked(tx, row, inputOf(data));
      });
      const { applied } = outcome;
      if (applied?.kind !== "moved") return;
      // The debit is recorded and the biller (the rail, for a payout) not yet called: the integration suite kills the
      // process here.
      if (applied.row.status === "processing")
        failpoint(applied.row.type === "pay-out" ? "bill-service:payout-after-debit" : "bill-service:after-debit");
      progress.afterCommit(applied.row);
    },
  });
}
