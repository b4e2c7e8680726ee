/** Accounts, balances and ledger entries (the engine's src/accounts/account-records.ts). Keep them in step. */
import { z } from "zod";
import { currencySchema } from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, metadata, minorUnits, time } from "./common";

const depositChannelRecord = z.object({
  type: z.literal("bank-account"),
  accountName: z.string().describe("The account's name, or its customer's full name after update-account-name"),
  accountNumber: z.string().describe("10 digits; a pay-in to it credits the account"),
  bankName: z.string(),
  bankCode: z.string().describe("000: the sandbox bank"),
  partner: z.string(),
  createdAt: time,
  updatedAt: time,
});

export const accountRecord = named(
  "Account",
  z.object({
    id: idOf("ac.", "Account id"),
    object: z.literal("account"),
    name: z.string(),
    type: z.enum(["main", "sub", "virtual"]),
    currency: currencySchema,
    status: z.string().describe("active, or closed (a paid payment request's account)"),
    customer: idOf("cus.", "The customer it belongs to").optional(),
    reference: z.string().optional(),
    settlementAccount: idOf("ac.", "A virtual account's settlement account").optional(),
    isDefault: z.boolean().describe("The business's default (settlement) account in its currency"),
    depositChannels: z.array(depositChannelRecord).describe("Where money is paid in; see POST deposit-channels"),
    metadata,
    createdAt: time,
    updatedAt: time,
  }),
);

export const balanceRecord = named(
  "Balance",
  z.object({
    object: z.literal("balance"),
    account: idOf("ac.", "Account id"),
    currency: currencySchema,
    available: minorUnits("ledger − held: what can be spent"),
    ledger: minorUnits("Posted balance"),
    held: minorUnits("Held for authorizations under way"),
  }),
);

export const creditedAccountRecord = named("CreditedAccount", accountRecord.extend({ balance: balanceRecord }));

export const accountLogRecord = named(
  "AccountLogEntry",
  z.object({
    id: z.string(),
    object: z.literal("account.log"),
    account: idOf("ac.", "Account id"),
    movement: z.string().describe("The ledger movement this entry is one side of"),
    type: z.enum(["debit", "credit"]),
    kind: z.string().describe("e.g. pay-in, capture, refund, reversal, card-funding, bill-debit, bill-refund"),
    amount: minorUnits("Negative for a debit"),
    balanceAfter: minorUnits("The account's posted balance after this entry").optional(),
    currency: currencySchema,
    reference: z.string(),
    description: z.string(),
    createdAt: time,
  }),
);
