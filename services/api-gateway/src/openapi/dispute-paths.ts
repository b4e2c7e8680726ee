/** Disputes of card transactions (services/authorization-engine, src/disputes/), and their test-mode outcomes. */
import { z } from "zod";
import { disputeRequestSchema, disputeUpdateSchema } from "@cardhold/contracts";
import { IDS } from "./examples";
import { list, read, write } from "./operations";
import { disputeRecord } from "./records/disputes";
import { error } from "./responses";
import type { Paths } from "./schema";

const AT = "2025-03-20T09:12:40.000Z";

export const disputeRequest = {
  reason: "value-not-received",
  source: IDS.authorization,
  text: "The order never arrived; the merchant does not answer.",
  documents: ["https://wallet.example.com/evidence/receipt-2345.pdf"],
  user: "usr.2tW9aQ3mLk7XpRs2B",
};

export const dispute = {
  id: "dsp.2tW9aR5nKm8YqTt3C",
  object: "dispute",
  ...disputeRequest,
  status: "open",
  amount: 500_000,
  currency: "NGN",
  card: IDS.card,
  customer: IDS.customer,
  account: IDS.settlement,
  provisionalCredit: 500_000,
  owed: 0,
  createdAt: AT,
  updatedAt: AT,
};

const CREATE =
  "Opens a dispute of a card transaction: `source` is its authorization, a capture with money debited (approved). " +
  "One open dispute per authorization. `amount` defaults to the captured amount not already won back in an earlier " +
  "dispute (fees are not disputed). It must be opened within the program's `authorization.disputes.windowDays` " +
  "(default 120) after the authorization. With the program's `disputes.provisionalCredit`, the amount is credited to " +
  "the cardholder's account at once; the outcome makes it final (won) or takes it back (lost, closed). Sends " +
  "dispute.created.";

const closeBody = z.object({}).describe("Nothing is read: send {}");

const dispositions = {
  "422": error("StateConflict", "The dispute is no longer open (won, lost or closed are final)"),
};
const testKeysOnly = {
  "403": error(
    "Forbidden",
    "A live key: simulation takes test keys (sk.test.…) only; or a restricted key without write",
  ),
};

export function disputePaths(): Paths {
  return {
    "/disputes": {
      post: write("Dispute a card transaction", disputeRequestSchema, disputeRecord, {
        status: "201",
        description: CREATE,
        bodyExample: disputeRequest,
        example: { code: "success", data: dispute },
        responses: {
          "404": error("NotFound", "Unknown source authorization"),
          "409": error("Conflict", "The authorization already has an open dispute"),
          "422": error(
            "StateConflict",
            "Not disputable: not a capture with money debited (declined, reversed, pending, a check), past the " +
              "program's window, or an amount larger than what is left to dispute",
          ),
        },
      }),
      get: list("List disputes", disputeRecord, ["source", "card", "customer", "account"]),
    },
    "/disputes/{id}": {
      get: read("Retrieve a dispute", disputeRecord),
      put: write("Update a dispute's evidence (text, documents, user)", disputeUpdateSchema, disputeRecord, {
        description:
          "Only text, documents (the list given replaces the old one) and user change, while the dispute is open. " +
          "Sends dispute.updated.",
        bodyExample: { documents: [...disputeRequest.documents, "https://wallet.example.com/evidence/chat-2345.png"] },
        responses: dispositions,
      }),
    },
    "/disputes/{id}/close": {
      put: write("Close (withdraw) a dispute", closeBody, disputeRecord, {
        bodyExample: {},
        description:
          "Send `{}`. The dispute ends as closed: a provisional credit is taken back from the cardholder's account, " +
          "as much as its available balance covers (the rest is shown as owed). Sends dispute.closed.",
        responses: dispositions,
      }),
    },
    "/simulation/disputes/{id}/win": {
      post: write("The network decides a dispute for the cardholder", undefined, disputeRecord, {
        description:
          "Test mode. The dispute ends as won: a provisional credit stands; without one, the amount is credited now. " +
          "Sends dispute.won.",
        responses: { ...testKeysOnly, ...dispositions },
      }),
    },
    "/simulation/disputes/{id}/lose": {
      post: write("The network decides a dispute against the cardholder", undefined, disputeRecord, {
        description:
          "Test mode. The dispute ends as lost: a provisional credit is taken back, as much as the account's " +
          "available balance covers (the rest is shown as owed). Sends dispute.lost.",
        responses: { ...testKeysOnly, ...dispositions },
      }),
    },
  };
}
