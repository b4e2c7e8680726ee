/**
 * The authorization engine's records as the API and its events show them: its src/<resource>/<resource>-records.ts files
 * (absent values are left out there, hence optional here). Keep them in step. Programs and cards here; accounts and
 * authorizations beside.
 */
import { z } from "zod";
import { CHANNELS, currencySchema, spendingControlsSchema, spendingLimitSchema } from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, metadata, minorUnits, time } from "./common";

const network = z.enum(["verve", "mastercard"]);
const cardType = z.enum(["virtual", "physical"]);

/**
 * authorization.standIn as the program keeps it (contracts' standInSchema; MCC lists always as an array); a webhook's
 * standIn is shown the same way (records/platform.ts).
 */
export const standInRecord = z
  .object({
    rules: z.array(
      z.object({
        name: z.string().optional().describe("Names the rule in the decision (standInRule); unnamed: rules[<index>]"),
        approveUpTo: minorUnits("Approves a capture of at most this amount (fees not counted)"),
        perCardDaily: minorUnits(
          "At most this much approved by stand-in per card per UTC day, this capture included",
        ).optional(),
        mccs: z.array(z.string()).optional().describe("Only captures whose MCC is in these lists; absent or []: any"),
        channels: z.array(z.enum(CHANNELS)).optional().describe("Only captures on these channels; absent or []: any"),
      }),
    ),
    otherwise: z.enum(["approve", "decline"]).describe("What a capture no rule takes gets"),
  })
  .describe(
    "Stand-in rules for a capture that gets no usable answer in time (instead of timeoutDefault; checks and amount " +
      "changes keep timeoutDefault). The first rule whose mccs and channels take the capture decides: approve within " +
      "approveUpTo and perCardDaily, else decline. The decision is decisionType stand-in, with standInRule.",
  );

export const programRecord = named(
  "CardProgram",
  z.object({
    id: idOf("c.prg.", "Card program id"),
    object: z.literal("card.program"),
    name: z.string(),
    description: z.string().optional(),
    network,
    type: cardType,
    quantity: z.number().int().optional().describe("Physical programs only"),
    currency: currencySchema,
    distribution: z.record(z.string(), z.unknown()).optional(),
    personalization: z.record(z.string(), z.unknown()).optional(),
    authorization: z.object({
      fundingSourceType: z.enum(["card-account", "settlement-account"]),
      settlementAccount: idOf("ac.", "The account that pays (settlement-account) or settles"),
      transactionFee: z
        .union([idOf("fee.", "The fee added to every capture's fees"), minorUnits("A flat fee on every capture")])
        .describe("The fee id the program was given; whole minor units when it was given an amount (0: none)"),
      feesAccount: idOf("ac.", "Where the program's fees are paid: its fee's account, else the settlement account"),
      webhook: idOf("wh.", "The webhook this program's authorization events go to").optional(),
      timeoutDefault: z
        .enum(["approve", "decline"])
        .optional()
        .describe("Applied when the receiver gives no usable answer in time"),
      standIn: standInRecord.optional(),
      disputes: z
        .object({
          provisionalCredit: z
            .boolean()
            .describe("A new dispute credits its amount to the cardholder's account at once, until its outcome"),
          windowDays: z.number().int().describe("How many days after its authorization a transaction can be disputed"),
        })
        .describe("How the program's card transactions are disputed (POST /disputes)"),
    }),
    status: z.enum(["new", "live"]).describe("A virtual program is live at once; a physical one later"),
    metadata,
    createdAt: time,
    updatedAt: time,
  }),
);

const mccLists = z
  .array(z.string())
  .describe('MCC lists: each a 4-digit code, a range "a-b" or a comma-joined mix ("5541-5542,7654")');

/** Controls as records show them: requests may send an MCC control as one string and `[null]` limits; records never. */
export const cardControlsRecord = named(
  "CardControls",
  spendingControlsSchema.extend({
    allowedMcc: mccLists.optional(),
    blockedMcc: mccLists.optional(),
    spendingLimits: z.array(spendingLimitSchema).optional(),
  }),
);

export const cardRecord = named(
  "Card",
  z.object({
    id: idOf("c.", "Card id"),
    object: z.literal("card"),
    type: cardType,
    network,
    status: z.enum(["inactive", "active", "blocked", "terminated"]),
    currency: currencySchema,
    customer: idOf("cus.", "The card holder"),
    program: idOf("c.prg.", "Its card program"),
    reference: z.string(),
    fundingSource: idOf(
      "ac.",
      "The account the card spends from: the program's settlement account (settlement-account), the card's own " +
        "account (card-account), or the account the card was issued with (fundingSource)",
    ),
    details: z.object({ last4: z.string(), expiry: z.string().describe("MM/YY"), cardHolderName: z.string() }),
    controls: cardControlsRecord,
    metadata,
    createdAt: time,
    updatedAt: time,
  }),
);

export const cardSecretsRecord = named(
  "CardSecrets",
  z.object({
    cardHolderName: z.string(),
    last4: z.string(),
    pan: z.string().describe("The full card number"),
    expiry: z.string().describe("MM/YY"),
    cvv: z.string(),
  }),
);
