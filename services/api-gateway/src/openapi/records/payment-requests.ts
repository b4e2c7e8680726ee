/** The payment request record, as the authorization engine's src/payment-requests/payment-request-records.ts writes it. */
import { z } from "zod";
import {
  currencySchema,
  PAYMENT_REQUEST_METHODS,
  PAYMENT_REQUEST_REFUND_REASONS,
  PAYMENT_REQUEST_STATUSES,
} from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, metadata, minorUnits, time } from "./common";

const bankAccount = z
  .object({
    accountName: z.string().describe("options.name: the name the payer's bank shows"),
    accountNumber: z.string().describe("10 digits: pay exactly amount into it"),
    bankName: z.string(),
    bankCode: z.string().describe("000: the sandbox bank"),
    partner: z.string(),
  })
  .describe("Where the payer pays: the deposit channel of the request's own virtual account");

export const paymentRequestRecord = named(
  "PaymentRequest",
  z.object({
    id: idOf("preq.", "Payment request id"),
    object: z.literal("payment-request"),
    method: z.enum(PAYMENT_REQUEST_METHODS).describe("As given"),
    options: z.object({ name: z.string(), bank: z.string().optional().describe("The bank asked for, as given") }),
    currency: currencySchema,
    amount: minorUnits("The exact amount expected"),
    customer: idOf("cus.", "The customer who is to pay").optional(),
    reference: z.string().optional().describe("Your reference, as given"),
    account: idOf("ac.", "Where the money lands: the account given, else your default account in the currency"),
    virtualAccount: idOf("ac.", "The request's own virtual account (closed once paid): its log shows every pay-in"),
    bankAccount,
    status: z
      .enum(PAYMENT_REQUEST_STATUSES)
      .describe("pending until exactly amount is paid in; then completed, for good (a single-use account)"),
    paidAt: time.optional().describe("When the exact amount arrived (completed only)"),
    paymentReference: z.string().optional().describe("The completing pay-in's own reference, when it had one"),
    refundedPayments: z.number().int().describe("How many pay-ins were sent back to their payer"),
    metadata,
    createdAt: time,
    updatedAt: time,
  }),
);

/** payment-request.payment-refunded: the request's record as the refund left it, and the pay-in sent back. */
export const refundedPaymentRequestRecord = named(
  "PaymentRequestWithRefund",
  paymentRequestRecord.extend({
    refund: z.object({
      amount: minorUnits("The pay-in's amount, all of it sent back"),
      reason: z
        .enum(PAYMENT_REQUEST_REFUND_REASONS)
        .describe("wrong-amount: not the amount asked (the request stays pending); already-completed: it was paid"),
      reference: z.string().optional().describe("The pay-in's own reference, when it had one"),
      refundedAt: time,
    }),
  }),
);
