import { z } from "zod";
import { busEnvelope } from "./messages";

/**
 * ledger-commands.v1 / ledger-results.v1 (key = the command's `reference`, e.g. the payment id, so the commands and
 * results of one payment stay in order): the bill-service asks the authorization engine,
 * which owns the ledger, to move money, and hears back. Commands are idempotent by `commandId`: sending one again
 * (after a crash, a redelivery) never moves money twice; the engine answers it again with the first result.
 */
export const CURRENCIES = ["NGN", "USD"] as const;
export const currencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof currencySchema>;

export const LEDGER_FAILURES = [
  "insufficient-funds",
  "account-not-found",
  "account-inactive",
  "currency-mismatch",
  "debit-not-found",
  "already-refunded",
] as const;
export type LedgerFailure = (typeof LEDGER_FAILURES)[number];

const minorUnits = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * Take `amount` (minor units) from `account` — or, when it is null, from the business's default account in
 * `currency` — for `reference` (e.g. a payment id).
 */
export const ledgerDebitCommand = busEnvelope(
  "ledger.debit",
  z.object({
    commandId: z.string().min(1).max(200),
    account: z.string().nullable(),
    currency: currencySchema,
    amount: minorUnits,
    reference: z.string().min(1).max(200),
    description: z.string().max(500),
  }),
);

/** Give back what the debit `debitCommandId` took (once, and only when that debit succeeded). */
export const ledgerRefundCommand = busEnvelope(
  "ledger.refund",
  z.object({
    commandId: z.string().min(1).max(200),
    debitCommandId: z.string().min(1).max(200),
    reference: z.string().min(1).max(200),
    description: z.string().max(500),
  }),
);

export const ledgerCommandMessage = z.discriminatedUnion("type", [ledgerDebitCommand, ledgerRefundCommand]);
export type LedgerCommandMessage = z.infer<typeof ledgerCommandMessage>;
export type LedgerDebitCommand = z.infer<typeof ledgerDebitCommand>;
export type LedgerRefundCommand = z.infer<typeof ledgerRefundCommand>;

export const ledgerResultMessage = busEnvelope(
  "ledger.result",
  z.object({
    commandId: z.string(),
    command: z.enum(["ledger.debit", "ledger.refund"]),
    status: z.enum(["succeeded", "failed"]),
    failureReason: z.enum(LEDGER_FAILURES).nullable(),
    /** The account the money moved from (debit) or back to (refund); null when none was found. */
    account: z.string().nullable(),
    amount: z.number().int(),
    currency: currencySchema.nullable(),
    /** The account's available balance right after the movement, minor units; null on failure. */
    availableAfter: z.number().int().nullable(),
  }),
);
export type LedgerResultMessage = z.infer<typeof ledgerResultMessage>;
