import { z } from "zod";
import { accountId, customerId, positiveMinorUnits } from "./cards";
import { metadataSchema } from "./customer";
import { currencySchema } from "./ledger";

/** `POST /payment-requests` (compatibility notes, "Payment requests"): one exact amount, paid into an account of its own. */

/** The methods the original interface names for payment requests, the same enum as its payouts. */
export const PAYMENT_REQUEST_METHODS = [
  "bank-transfer",
  "transfer",
  "fx-transfer",
  "fx-charge",
  "billing",
  "local-transfer",
] as const;
/** pending until exactly `amount` is paid in; completed then, and for good. */
export const PAYMENT_REQUEST_STATUSES = ["pending", "completed"] as const;
/** Why a pay-in to a payment request's account went back to the payer: not the amount asked, or the request is paid. */
export const PAYMENT_REQUEST_REFUND_REASONS = ["wrong-amount", "already-completed"] as const;
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];
export type PaymentRequestRefundReason = (typeof PAYMENT_REQUEST_REFUND_REASONS)[number];

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max);

export const paymentRequestSchema = z.object({
  method: z.enum(PAYMENT_REQUEST_METHODS).describe("Recorded as given; the payer pays by bank transfer to bankAccount"),
  options: z.object({
    name: text(100).describe("The name of the account the payer pays into, as the payer's bank shows it"),
    bank: z
      .string()
      .trim()
      .regex(/^[a-z0-9-]{1,50}$/, "must be a bank's short name, e.g. providus")
      .optional()
      .describe("The bank wanted for the account (e.g. providus); recorded: the account is at the platform's bank"),
  }),
  currency: currencySchema,
  amount: positiveMinorUnits.describe("The exact amount to pay, in minor units (kobo, cents)"),
  customer: customerId.optional().describe("The customer (cus.…) who is to pay"),
  reference: text(100).optional().describe("Your unique reference for the request"),
  account: accountId
    .optional()
    .describe("Where the money lands (ac.…, in the request's currency); default: your default account in the currency"),
  metadata: metadataSchema.optional(),
});
export type PaymentRequestRequest = z.output<typeof paymentRequestSchema>;
