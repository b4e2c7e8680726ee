import { z } from "zod";
import { metadataSchema } from "./customer";
import { currencySchema } from "./ledger";

/** Request bodies of card programs, cards, accounts and the test-mode simulation (compatibility notes). */

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max);
const idOf = (prefix: string, what: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix.replace(/\./g, "\\.")}[1-9A-HJ-NP-Za-km-z]{17}$`), `must be ${what} id (${prefix}…)`);

export const accountId = idOf("ac.", "an account");
export const customerId = idOf("cus.", "a customer");
export const programId = idOf("c.prg.", "a card program");
export const webhookId = idOf("wh.", "a webhook");
export const merchantId = idOf("mch.", "a merchant");
export const authorizationId = idOf("c.auth.", "a card authorization");
export const feeId = idOf("fee.", "a fee");

/** Largest amount accepted anywhere: 10^15 minor units, far inside the exact integer range. */
export const MAX_AMOUNT = 1_000_000_000_000_000;
export const minorUnits = z
  .number()
  .int("must be a whole number of minor units")
  .min(0, "must not be negative")
  .max(MAX_AMOUNT);
export const positiveMinorUnits = minorUnits.min(1, "must be at least 1");

export const CHANNELS = ["atm", "pos", "online", "in-app"] as const;
export const LIMIT_INTERVALS = ["per-authorization", "daily", "weekly", "monthly", "yearly", "all-time"] as const;
export const MCC_CATEGORY_NAMES = [
  "airlines",
  "flight-ticket",
  "car-rental",
  "hotels",
  "hospitality",
  "transport",
  "travel",
  "telecom",
  "utilities",
  "fuel-stations",
  "groceries",
  "restaurants",
  "digital-goods",
  "retail",
  "atm-cash",
  "financial-services",
  "gambling",
  "betting",
  "entertainment",
  "health-care",
  "education",
  "government",
] as const;

const MCC_LIST_PATTERN = /^\s*\d{4}(\s*-\s*\d{4})?(\s*,\s*\d{4}(\s*-\s*\d{4})?)*\s*$/;

/** Why one MCC list ("5541-5542,7654": four-digit MCCs and inclusive ranges, comma-joined) is not valid, if it is not. */
export function mccListProblem(list: string): string | undefined {
  if (!MCC_LIST_PATTERN.test(list)) return 'must list 4-digit MCCs or ranges, e.g. "5541-5542,7654"';
  const ascending = list.split(",").every((part) => {
    const [low, high] = part.split("-").map((n) => Number(n.trim()));
    return high === undefined || low! <= high;
  });
  return ascending ? undefined : "a range must go from low to high";
}

/**
 * allowedMcc / blockedMcc: the documented form is an array of MCC lists (`["5541-5542,7654"]`, `["7399","7395"]`);
 * a single string (the form this service took first) is read as a one-element array. Parses to the array form.
 */
const mccLists = z
  .union([z.string(), z.array(z.string()).max(100)], {
    error: 'must be an array of MCC lists, e.g. ["5541-5542,7654"]',
  })
  .superRefine((value, ctx) => {
    const lists = typeof value === "string" ? [value] : value;
    lists.forEach((list, i) => {
      const problem = mccListProblem(list);
      if (problem) ctx.addIssue({ code: "custom", message: problem, path: typeof value === "string" ? [] : [i] });
    });
  })
  .transform((value) => (typeof value === "string" ? [value] : value))
  .describe(
    'Array of MCC lists, each a 4-digit code, a range "a-b" or a comma-joined mix ("5541-5542,7654"); ' +
      "a single string is taken as one list",
  );

export const spendingLimitSchema = z.object({ amount: positiveMinorUnits, interval: z.enum(LIMIT_INTERVALS) });

export const spendingControlsSchema = z.object({
  allowedChannels: z.array(z.enum(CHANNELS)).max(4).optional(),
  blockedChannels: z.array(z.enum(CHANNELS)).max(4).optional(),
  allowedMcc: mccLists.optional(),
  blockedMcc: mccLists.optional(),
  allowedCategories: z.array(z.enum(MCC_CATEGORY_NAMES)).max(MCC_CATEGORY_NAMES.length).optional(),
  blockedCategories: z.array(z.enum(MCC_CATEGORY_NAMES)).max(MCC_CATEGORY_NAMES.length).optional(),
  allowedMerchants: z.array(merchantId).max(100).optional(),
  blockedMerchants: z.array(merchantId).max(100).optional(),
  /** Documented requests send `[null]` for "no limit": null elements are dropped. */
  spendingLimits: z
    .array(spendingLimitSchema.nullable())
    .max(10)
    .transform((limits) => limits.filter((limit) => limit !== null))
    .optional(),
});
export type SpendingControlsInput = z.infer<typeof spendingControlsSchema>;

/**
 * What a program charges on every capture: a fee's id (documented), a whole number of minor units (accepted as before),
 * or `{}` (the documented requests' placeholder: no fee).
 */
export const transactionFeeSchema = z.union([minorUnits, feeId, z.strictObject({})], {
  error: "must be a fee id (fee.…), a whole number of minor units, or {}",
});

/** A card program's disputes settings (`authorization.disputes`). */
export const DEFAULT_DISPUTE_WINDOW_DAYS = 120;
export const programDisputesSchema = z.object({
  provisionalCredit: z
    .boolean()
    .default(false)
    .describe("Credit the disputed amount to the cardholder's account when a dispute opens, until its outcome"),
  windowDays: z
    .number()
    .int("must be a whole number of days")
    .min(1)
    .max(3_650)
    .default(DEFAULT_DISPUTE_WINDOW_DAYS)
    .describe("How many days after its authorization a transaction can be disputed"),
});

/**
 * A card program's stand-in rules (`authorization.standIn`): what a capture gets when the receiver gives no usable
 * answer in time. The first rule whose mccs and channels take the capture decides: approve up to approveUpTo, and
 * within perCardDaily for the card's UTC day, else decline. No rule takes it: `otherwise`.
 */
const uniqueNames = (rules: Array<{ name?: string }>) => {
  const names = rules.flatMap((r) => (r.name ? [r.name] : []));
  return new Set(names).size === names.length;
};

export const standInRuleSchema = z.strictObject({
  name: text(60).optional().describe("Names the rule in the decision (standInRule); unnamed: rules[<index>]"),
  approveUpTo: minorUnits.describe("Approves a capture of at most this amount (minor units, fees not counted)"),
  perCardDaily: minorUnits
    .optional()
    .describe("At most this much approved by stand-in per card per UTC day, this capture included"),
  mccs: mccLists.optional().describe("Only captures whose MCC is in these lists (as allowedMcc); absent or []: any"),
  channels: z.array(z.enum(CHANNELS)).max(4).optional().describe("Only captures on these channels; absent or []: any"),
});
export const standInSchema = z
  .strictObject({
    rules: z.array(standInRuleSchema).max(20),
    otherwise: z.enum(["approve", "decline"]).default("decline").describe("What a capture no rule takes gets"),
  })
  .refine((s) => uniqueNames(s.rules), { path: ["rules"], message: "rule names must be unique" })
  .refine((s) => s.rules.every((r) => r.name !== "otherwise"), {
    path: ["rules"],
    message: 'a rule must not be named "otherwise": that names the decision when no rule takes a capture',
  });
export type StandInRequest = z.infer<typeof standInSchema>;

export const programRequestSchema = z
  .object({
    name: text(100),
    description: z.string().max(500).optional(),
    network: z.enum(["verve", "mastercard"]),
    type: z.enum(["virtual", "physical"]),
    quantity: z.number().int().min(1).max(1_000_000).optional(),
    currency: currencySchema,
    distribution: z.record(z.string(), z.unknown()).optional(),
    personalization: z.record(z.string(), z.unknown()).optional(),
    authorization: z
      .object({
        fundingSourceType: z.enum(["card-account", "settlement-account"]).default("settlement-account"),
        settlementAccount: accountId.optional(),
        transactionFee: transactionFeeSchema.default(0),
        webhook: webhookId.optional(),
        timeoutDefault: z.enum(["approve", "decline"]).optional(),
        standIn: standInSchema.optional(),
        disputes: programDisputesSchema.optional(),
      })
      .optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((p) => p.type === "physical" || p.quantity === undefined, {
    path: ["quantity"],
    message: "only a physical program has a quantity",
  });
export type ProgramRequest = z.infer<typeof programRequestSchema>;

/** A quote's hash (`POST /tools/fx/quotes`) as card create and fund take it: any text, checked against the quotes. */
const fxHashSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200)
  .describe(
    "The hash of an FX quote (POST /tools/fx/quotes): needed when debitSource is in another currency than the card; " +
      "unexpired, unused, from debitSource's currency to the card's, for this amount. Not read otherwise.",
  );

export const cardRequestSchema = z.object({
  program: programId,
  customer: customerId,
  reference: text(100),
  cardHolderName: text(26).optional(),
  amount: positiveMinorUnits.optional(),
  debitSource: accountId.optional(),
  fundingSource: accountId.optional(),
  debitCurrency: currencySchema.optional(),
  fxHash: fxHashSchema.optional(),
  controls: spendingControlsSchema.optional(),
  metadata: metadataSchema.optional(),
});
export type CardRequest = z.infer<typeof cardRequestSchema>;

export const cardUpdateSchema = z
  .object({ controls: spendingControlsSchema.optional(), metadata: metadataSchema.optional() })
  .refine((u) => u.controls !== undefined || u.metadata !== undefined, "give controls, metadata or both");

const pin = z.string().regex(/^\d{4}$/, "must be 4 digits");
export const activateCardSchema = z.object({ cvv: z.string().regex(/^\d{3}$/, "must be 3 digits"), pin });
export const resetPinSchema = z.object({ pin });
export const fundCardSchema = z.object({
  amount: positiveMinorUnits,
  debitSource: accountId,
  debitCurrency: currencySchema.optional(),
  fxHash: fxHashSchema.optional(),
});

export const accountRequestSchema = z
  .object({
    name: text(100),
    currency: currencySchema,
    type: z.enum(["main", "sub", "virtual"]),
    customer: customerId.optional(),
    reference: text(100).optional(),
    settlementAccount: accountId.optional(),
    depositChannels: z
      .array(z.enum(["bank-account"]))
      .max(1)
      .optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((a) => a.type === "virtual" || a.settlementAccount === undefined, {
    path: ["settlementAccount"],
    message: "only a virtual account has a settlement account",
  });
export type AccountRequest = z.infer<typeof accountRequestSchema>;

const networkRequest = {
  channel: z.enum(CHANNELS),
  mcc: z
    .string()
    .regex(/^\d{4}$/, "must be a 4-digit merchant category code")
    .optional(),
  merchantDescriptor: text(100).optional(),
  merchant: merchantId.optional(),
  /** The network's reference: a request sent again with the same reference is the same authorization. */
  reference: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,40}$/, "must be 1 to 40 letters, digits or dashes")
    .optional(),
};

export const simulateCheckSchema = z.object(networkRequest);
export const simulateCaptureSchema = z.object({
  ...networkRequest,
  amount: minorUnits,
  fees: minorUnits.default(0),
  partialApprovalAllowed: z
    .boolean()
    .default(false)
    .describe("The network accepts an approval of less than amount (as for prepaid cards)"),
});
const amountUnlessExisting = (body: { amount?: number; authorization?: string }) =>
  body.amount !== undefined || body.authorization !== undefined;
const amountRequired = { path: ["amount"], message: "is required unless an existing authorization is given" };

export const simulateUpdateSchema = z
  .object({
    ...networkRequest,
    /** The capture to make first; not needed with `authorization`. */
    amount: minorUnits.optional(),
    fees: minorUnits.default(0),
    updateAmount: minorUnits,
    updateFees: minorUnits.default(0),
    /** Update this approved authorization instead of capturing a new one first. */
    authorization: authorizationId.optional(),
  })
  .refine(amountUnlessExisting, amountRequired);
export const simulateReverseSchema = z
  .object({
    ...networkRequest,
    amount: minorUnits.optional(),
    fees: minorUnits.default(0),
    authorization: authorizationId.optional(),
  })
  .refine(amountUnlessExisting, amountRequired);
export const simulatePayInSchema = z.object({
  method: z.enum(["bank-transfer"]).default("bank-transfer"),
  accountNumber: z.string().regex(/^\d{10}$/, "must be a 10-digit account number"),
  amount: positiveMinorUnits,
  /** Sending a pay-in again with the same reference credits nothing more. */
  reference: text(100).optional(),
});
export type SimulatePayIn = z.infer<typeof simulatePayInSchema>;
export type SimulateCapture = z.infer<typeof simulateCaptureSchema>;
export type SimulateUpdate = z.infer<typeof simulateUpdateSchema>;
export type SimulateReverse = z.infer<typeof simulateReverseSchema>;
