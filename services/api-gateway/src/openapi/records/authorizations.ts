/** Card authorizations and transactions, as the API and the events show them (authorization-engine records.ts). */
import { z } from "zod";
import { CHANNELS, currencySchema } from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, metadata, minorUnits, time } from "./common";

/** Strings the network (or, in test mode, the simulation) sent; not all are always present. */
const networkData = z
  .object({
    network: z.string(),
    reference: z.string(),
    rrn: z.string(),
    stan: z.string(),
    txnReference: z.string(),
    cardAcceptorNameLocation: z.string(),
    terminalId: z.string(),
    cardAccountNumber: z.string(),
  })
  .partial();

/** The network's request as GET shows it, built from what the platform knows of it; "" where it sent nothing. */
const networkRequestBody = z.object({
  requestId: z.string().describe("The network's reference of the request (networkData.reference)"),
  amount: minorUnits("The amount asked (requestedAmount)"),
  walletId: idOf("ac.", "The funding account"),
  transactionReference: z.string().describe("networkData.txnReference"),
  mac: z.string().describe('"" in test mode: the simulated network signs nothing'),
  acquiringInstitutionId: z.string().describe('"" when the network named none (test mode)'),
  terminalId: z.string(),
  terminalType: z.string().describe("The channel the network named, e.g. pos"),
  merchantId: z.string().describe('The merchant id (`mch.…`), "" when none'),
  currencyCode: z.string().describe('ISO 4217 numeric code of the currency, e.g. "566" for NGN'),
  cardAcceptorNameLocation: z.string(),
  transactionDateTime: time,
});

/** The platform's answer to the network, once it decided. */
const networkResponseBody = z.object({
  amount: minorUnits("The authorization's amount: the one approved"),
  mac: z.string().describe('""'),
  name: z.string().describe('The card holder name a check was answered with, else ""'),
  requestId: z.string(),
  responseCode: z
    .string()
    .describe(
      'ISO 8583: 00 approved, 10 approved for less (partial), 51 insufficient funds, 54 expired, 57 card control, 61 spending limit, 62 card or account not active, 91 no answer in time or platform overloaded, 05 declined by the receiver or other (README, "Card network interface")',
    ),
  transactionReference: z.string(),
});

/** GET /card-authorizations adds the network's messages to networkData, as the original interface shows them. */
const authorizationNetworkData = networkData.extend({
  rnn: z.string().optional().describe("The same as rrn (the original interface's spelling on GET)"),
  requestBody: networkRequestBody.optional(),
  responseBody: networkResponseBody.optional().describe("Absent while the authorization is pending"),
});

export const authorizationRecord = named(
  "CardAuthorization",
  z.object({
    id: idOf("c.auth.", "Card authorization id"),
    object: z.literal("card.authorization"),
    card: idOf("c.", "Card id"),
    customer: idOf("cus.", "The card holder"),
    account: idOf("ac.", "The funding account"),
    type: z.enum(["check", "capture"]).describe("check: a balance and name inquiry; capture: a debit"),
    status: z.enum(["pending", "approved", "declined", "reversed"]),
    amount: minorUnits(
      "The amount approved (a partial approval: less than requestedAmount); while undecided, the amount asked; while an amount change awaits the receiver (pending), the new amount",
    ),
    requestedAmount: minorUnits(
      "A capture's: what the network asked for (while an amount change is pending, the new amount)",
    ).optional(),
    partialApprovalAllowed: z
      .boolean()
      .optional()
      .describe(
        "A capture's: the decision asked about may approve less than amount (an approve answer with a smaller amount); never for an amount change",
      ),
    fees: minorUnits("Network fees plus the program's transactionFee"),
    currency: currencySchema,
    channel: z.enum(CHANNELS),
    mcc: z.string().optional().describe("Merchant category code"),
    merchant: idOf("mch.", "Merchant id").optional(),
    decisionType: z
      .enum(["direct-response", "system-response", "stand-in"])
      .optional()
      .describe(
        "direct-response: the receiver decided; system-response: the platform did (a failed pre-check, the timeout default); stand-in: stand-in rules did (the program's, else the deciding webhook's; no usable answer in time)",
      ),
    standInRule: z
      .string()
      .optional()
      .describe("The stand-in rule that decided the capture: its name, rules[<index>], or otherwise"),
    standInSource: z
      .enum(["program", "webhook"])
      .optional()
      .describe("Whose stand-in rules decided (with standInRule): the card program's, or the deciding webhook's"),
    statusReason: z
      .string()
      .optional()
      .describe("e.g. timeout-error, invalid-response, webhook-error, insufficient-funds"),
    declineReason: z.string().optional().describe("The decline code"),
    reserved: z.boolean().describe("Funds are held for it"),
    cardBalance: minorUnits("From an approved check's answer").optional(),
    cardHolderName: z.string().optional().describe("From an approved check's answer"),
    networkData: authorizationNetworkData,
    metadata,
    createdAt: time,
    updatedAt: time,
  }),
);

export const transactionRecord = named(
  "CardTransaction",
  z.object({
    id: idOf("c.txn.", "Card transaction id"),
    object: z.literal("card.transaction"),
    authorization: idOf("c.auth.", "The authorization it came from"),
    source: idOf("c.auth.", "The same authorization id"),
    card: idOf("c.", "Card id"),
    customer: idOf("cus.", "The card holder"),
    type: z.enum(["capture", "adjustment", "reversal"]),
    channel: z.enum(CHANNELS),
    currency: currencySchema,
    amount: minorUnits("Negative for a debit"),
    fees: minorUnits("Negative for a debit"),
    mcc: z.string().optional(),
    networkData,
    createdAt: time,
    updatedAt: time.describe("A transaction never changes: the same as createdAt"),
  }),
);
