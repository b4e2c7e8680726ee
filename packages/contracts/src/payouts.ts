import { z } from "zod";
import { accountId, customerId, feeId, MAX_AMOUNT } from "./cards";
import { metadataSchema } from "./customer";
import { currencySchema } from "./ledger";

/** The payout methods of the original interface (compatibility notes, "Payouts"); the bill-service pays `bank-transfer`. */
export const PAYOUT_METHODS = [
  "bank-transfer",
  "transfer",
  "fx-transfer",
  "fx-charge",
  "billing",
  "local-transfer",
] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/**
 * `options` of a payout. Which fields a method needs is checked by the method (a bank transfer: accountNumber and
 * bankCode), so that every missing one is named at once with the method's own message.
 */
export const payoutOptionsSchema = z.object({
  method: z.string().max(50).optional().describe("Taken and ignored: the top-level method decides"),
  accountNumber: z.string().max(20).optional().describe("bank-transfer: the beneficiary's 10-digit NUBAN"),
  bankCode: z
    .string()
    .max(10)
    .optional()
    .describe("bank-transfer: the beneficiary bank's NIP code (000013) or CBN code (058); GET /tools/banks"),
  narration: z.string().trim().min(1).max(100).optional().describe("What the beneficiary's statement shows"),
  note: z.string().max(500).optional().describe("A note kept on the payout, not sent to the bank"),
  destination: accountId.optional().describe("transfer: the account credited (not supported)"),
  fxCurrency: currencySchema.optional().describe("fx-transfer (not supported)"),
  fxQuoteHash: z.string().max(200).optional().describe("fx-transfer: a quote's hash (not supported)"),
});

/** `POST /payments/payouts`. Unknown top-level fields are ignored, as on the other endpoints. */
export const payoutRequestSchema = z.object({
  method: z.enum(PAYOUT_METHODS),
  options: payoutOptionsSchema,
  currency: currencySchema,
  amount: z.number().int().positive().max(MAX_AMOUNT).describe("Minor units (kobo), sent to the beneficiary"),
  customer: customerId.optional(),
  reference: z.string().trim().min(1, "must not be empty").max(100).optional(),
  fee: feeId.optional().describe("The fee to charge; default: the configured fees.bankTransfer; none: no fee"),
  debitSource: accountId.optional().describe("The account to debit; default: the configured payOutAccount, else main"),
  metadata: metadataSchema.optional(),
});
export type PayoutRequest = z.output<typeof payoutRequestSchema>;
