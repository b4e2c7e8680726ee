/**
 * The bill-service's records: services/bill-service/src/domain/payment-record.ts (bill payments and payouts),
 * domain/bill-product.ts and the answer of payments.validate (payments/bill-payments.ts). Keep them in step.
 */
import { z } from "zod";
import { currencySchema } from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, metadata, minorUnits, time } from "./common";

const strings = z.record(z.string(), z.string());

export const billPaymentRecord = named(
  "BillPayment",
  z.object({
    id: idOf("p.", "Payment id"),
    object: z.literal("payment"),
    type: z.literal("bill"),
    status: z.enum(["debiting", "processing", "refunding", "successful", "failed"]),
    amount: minorUnits("The bill amount"),
    currency: currencySchema,
    fees: minorUnits("Fee on top of the amount; the debit is amount + fees"),
    feeBreakdown: z.array(
      z.object({
        amount: z.number().int(),
        group: z.string(),
        type: z.string(),
        fee: idOf("fee.", "The configured fee charged (fees.billPayment); absent: the product's own fee").optional(),
      }),
    ),
    account: idOf("ac.", "The account debited, once the ledger answered").nullable(),
    fundingSource: idOf(
      "ac.",
      "The account debited: the debitSource, else the configured payOutAccount, else the default account (equal " +
        "to account; null until the ledger named it)",
    ).nullable(),
    method: z.literal("bill"),
    methodData: z.object({
      product: idOf("bp.", "Bill product id"),
      productName: z.string(),
      category: z.string(),
      biller: z.string(),
      inputs: strings,
      accountNumber: z.string(),
      accountName: z.string().nullable().describe("The account holder at the biller"),
      billerReference: z.string().nullable(),
      output: strings.nullable().describe("e.g. token and units of prepaid electricity"),
      requeuedFrom: idOf("p.", "A requeue: the failed payment this one retries").optional(),
      requeuedAs: idOf("p.", "A requeued failed payment: the payment that retries it").optional(),
    }),
    customer: idOf("cus.", "Customer id").nullable(),
    reference: z.string().nullable(),
    failureReason: z
      .string()
      .nullable()
      .describe("insufficient-funds, account-not-found, account-inactive, currency-mismatch, biller-declined …"),
    events: z.array(z.string()).describe("Ids of the events sent about it"),
    metadata,
    createdAt: time,
    updatedAt: time,
  }),
);

/** services/bill-service/src/domain/payment-record.ts toPayoutRecord: a payout (POST /payments/payouts). */
export const payoutRecord = named(
  "Payout",
  z.object({
    id: idOf("p.", "Payment id"),
    object: z.literal("payment"),
    type: z.literal("pay-out"),
    status: billPaymentRecord.shape.status,
    amount: minorUnits("The amount sent to the beneficiary"),
    currency: currencySchema,
    fees: minorUnits("Fee on top of the amount; the debit is amount + fees"),
    feeBreakdown: z.array(
      z.object({
        amount: z.number().int(),
        group: z.literal("bank-transfer"),
        type: z.enum(["flat", "percentage"]),
        fee: idOf("fee.", "The fee charged: the request's fee, else the configured fees.bankTransfer"),
      }),
    ),
    account: billPaymentRecord.shape.account,
    fundingSource: billPaymentRecord.shape.fundingSource,
    method: z.literal("bank-transfer"),
    methodData: z.object({
      bankTransfer: z.object({
        accountNumber: z
          .string()
          .regex(/^\d{10}$/)
          .describe("The beneficiary's NUBAN"),
        bankCode: z
          .string()
          .regex(/^\d{6}$/)
          .describe("The beneficiary bank's NIP code (000013), also when the request named it by its CBN code"),
        bankName: z.string(),
        accountName: z.string().describe("The beneficiary's name, from the bank's name enquiry"),
        sourceAccountName: z.string().nullable().describe("The sender: the payout's customer's name, else null"),
        narration: z.string().describe("What the beneficiary's statement shows; default: the reference, else the id"),
        note: z.string().nullable(),
        sessionId: z.string().nullable().describe("The bank rail's session id of the transfer, once it gave one"),
      }),
    }),
    customer: billPaymentRecord.shape.customer,
    reference: z.string().nullable(),
    failureReason: z
      .string()
      .nullable()
      .describe("insufficient-funds, account-not-found, account-inactive, currency-mismatch, bank-declined …"),
    events: billPaymentRecord.shape.events,
    metadata,
    createdAt: time,
    updatedAt: time,
  }),
);

/** Any payment, as GET /payments and GET /payments/{id} answer: a bill payment or a payout, told apart by `type`. */
export const paymentRecord = named("Payment", z.discriminatedUnion("type", [billPaymentRecord, payoutRecord]));

export const billValidationRecord = named(
  "BillValidation",
  z.object({
    product: idOf("bp.", "Bill product id"),
    productName: z.string(),
    category: z.string(),
    biller: z.string(),
    currency: currencySchema,
    amount: minorUnits("Bill amount"),
    fee: minorUnits("Fee"),
    total: minorUnits("amount + fee: what will be debited"),
    inputs: strings,
    accountNumber: z.string(),
    accountName: z.string().describe("The account holder at the biller"),
    customer: idOf("cus.", "Customer id").nullable(),
    customerName: z.string().nullable(),
    debitSource: idOf("ac.", "Account id").nullable(),
  }),
);

export const billCategoryRecord = named(
  "BillCategory",
  z.object({
    id: z.enum(["airtime", "mobile-data", "electricity", "cable-tv"]),
    object: z.literal("bill.category"),
    name: z.string(),
    description: z.string(),
  }),
);

const inputSpec = z.discriminatedUnion("type", [
  z.object({
    name: z.string(),
    label: z.string(),
    type: z.literal("string"),
    required: z.boolean(),
    pattern: z.string(),
    example: z.string(),
  }),
  z.object({
    name: z.string(),
    label: z.string(),
    type: z.literal("amount"),
    required: z.boolean(),
    minAmount: z.number().int(),
    maxAmount: z.number().int(),
  }),
]);

export const billProductRecord = named(
  "BillProduct",
  z.object({
    id: idOf("bp.", "Bill product id"),
    object: z.literal("bill.product"),
    name: z.string(),
    category: billCategoryRecord.shape.id,
    biller: z.string().describe("The biller's code, as the payment's methodData names it"),
    billerName: z.string(),
    currency: currencySchema,
    price: minorUnits("Fixed price; null when the price is the amount input").nullable(),
    fee: z.object({ type: z.literal("flat"), amount: z.number().int() }),
    inputs: z.array(inputSpec).describe("What the biller wants; amounts are integer minor units"),
    accountInput: z.string().describe("The input the biller looks up (phone, meter, smartcard)"),
    output: z
      .array(z.object({ name: z.string(), description: z.string() }))
      .describe("What a successful payment returns in methodData.output"),
  }),
);

/** services/bill-service/src/domain/banks.ts and the answer of banks/bank-tools.ts. */
export const bankRecord = named(
  "Bank",
  z.object({
    object: z.literal("bank"),
    name: z.string(),
    code: z
      .string()
      .regex(/^(\d{3}|\d{5})$/)
      .describe("The CBN code: 3 digits for a deposit money bank (058), 5 for another institution (50211)"),
    nipCode: z
      .string()
      .regex(/^\d{6}$/)
      .describe("The NIBSS Instant Payment institution code (000013)"),
    type: z.enum(["commercial", "merchant", "non-interest", "microfinance"]),
  }),
);

export const resolvedBankAccountRecord = named(
  "BankAccountName",
  z.object({
    object: z.literal("bank.account"),
    accountNumber: z.string().regex(/^\d{10}$/),
    accountName: z.string().describe("The account holder's name, as the bank gave it"),
    bankCode: bankRecord.shape.code,
    bankName: z.string(),
    nipCode: bankRecord.shape.nipCode,
    resolvedAt: time.describe("When the name was first resolved: a repeat answers the name kept then"),
  }),
);
