/** The dispute record, as the authorization engine's src/disputes/dispute-records.ts writes it (absent values left out). */
import { z } from "zod";
import { currencySchema, DISPUTE_REASONS, DISPUTE_STATUSES } from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, minorUnits, time } from "./common";

export const disputeRecord = named(
  "Dispute",
  z.object({
    id: idOf("dsp.", "Dispute id"),
    object: z.literal("dispute"),
    reason: z.enum(DISPUTE_REASONS),
    source: idOf("c.auth.", "The disputed card authorization"),
    text: z.string().optional().describe("What happened, as given"),
    documents: z.array(z.string()).describe("Links to the evidence, as given (the latest list)"),
    user: z.string().optional().describe("The user (usr.…) given, as given"),
    status: z
      .enum(DISPUTE_STATUSES)
      .describe(
        "open at creation; won or lost by the network's outcome; closed when you withdraw it. Only an open dispute changes",
      ),
    amount: minorUnits("What is disputed: the captured amount not already won back, unless you gave less"),
    currency: currencySchema,
    card: idOf("c.", "The card of the disputed authorization"),
    customer: idOf("cus.", "The card holder"),
    account: idOf("ac.", "The cardholder's account: the authorization's funding account, which credits go to"),
    provisionalCredit: minorUnits(
      "Credited to account when the dispute opened (the program's disputes.provisionalCredit; 0 without). Won: it " +
        "stands; lost or closed: it is taken back",
    ),
    owed: minorUnits(
      "Of a provisional credit taken back, what the account's available balance could not cover (never below zero)",
    ),
    createdAt: time,
    updatedAt: time,
  }),
);
