/** The bank tools (`/tools/banks/*`): which banks an account number may belong to, and whose account it is. */
import { z } from "zod";
import type { Db } from "@cardhold/db";
import { AppError, badRequest, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { withDeadline } from "../billers/biller";
import { banksFor, findBank, type Bank } from "../domain/banks";
import { isValidNuban, NUBAN } from "../domain/nuban";
import {
  findResolvedBankAccount,
  rememberResolvedBankAccount,
  type ResolvedBankAccountRow,
} from "../store/resolved-bank-accounts.store";
import { accountNamesFor, type AccountNameProvider } from "./account-names";

export interface BankToolsOptions {
  db: Db;
  /** The live-mode account names; none: live mode refuses to resolve (403 bank-provider-not-configured). */
  liveAccountNames: AccountNameProvider | undefined;
  /** Longest wait for one name enquiry. */
  lookupTimeoutMs: number;
}

/** Seconds a client is told to wait before asking about an account whose bank did not answer. */
export const BANK_RETRY_AFTER_SECONDS = 10;

const accountNumber = z.string().regex(NUBAN, "must be the 10-digit account number (NUBAN)");
const resolveQuerySchema = z.object({
  accountNumber,
  bankCode: z
    .string()
    .regex(/^(\d{3}|\d{5}|\d{6})$/, "must be the bank's CBN code (058) or NIP code (000013); GET /tools/banks"),
});

/** The bank's 503: the route adds Retry-After. */
export class BankUnavailable extends AppError {
  readonly retryAfterSeconds = BANK_RETRY_AFTER_SECONDS;
  constructor(bank: Bank) {
    super(503, "bank-unavailable", `${bank.name} did not answer the name enquiry; try again shortly`);
  }
}

const toResolvedRecord = (bank: Bank, row: ResolvedBankAccountRow) => ({
  object: "bank.account" as const,
  accountNumber: row.account_number,
  accountName: row.account_name,
  bankCode: bank.code,
  bankName: bank.name,
  nipCode: bank.nipCode,
  resolvedAt: row.resolved_at.toISOString(),
});
export type ResolvedBankAccount = ReturnType<typeof toResolvedRecord>;

export function createBankTools(opts: BankToolsOptions) {
  const { db } = opts;

  const ask = async (provider: AccountNameProvider, bank: Bank, number: string): Promise<string | undefined> => {
    try {
      return await withDeadline(opts.lookupTimeoutMs, (signal) => provider.resolve(bank, number, signal));
    } catch {
      throw new BankUnavailable(bank);
    }
  };

  return {
    /** `GET /tools/banks/short-list/:accountNumber`: the banks at which the number's check digit is right. */
    shortList(number: string): Bank[] {
      const checked = validate(z.object({ accountNumber }), { accountNumber: number }, "account number");
      return banksFor(checked.accountNumber);
    },

    /** `GET /tools/banks/resolve?accountNumber=…&bankCode=…`: the holder's name, remembered once resolved. */
    async resolve(scope: Scope, query: unknown): Promise<ResolvedBankAccount> {
      const request = validate(resolveQuerySchema, query, "query");
      const bank = findBank(request.bankCode);
      if (!bank)
        throw badRequest(`Invalid query: bankCode`, [
          { path: "bankCode", message: `no bank has the code ${request.bankCode}; GET /tools/banks lists them` },
        ]);
      if (!isValidNuban(bank.code, request.accountNumber))
        throw badRequest(`Invalid query: accountNumber`, [
          { path: "accountNumber", message: `not an account number at ${bank.name}: its check digit is wrong` },
        ]);
      const provider = accountNamesFor(scope, opts.liveAccountNames);
      const known = await findResolvedBankAccount(db, scope, bank.code, request.accountNumber);
      if (known) return toResolvedRecord(bank, known);
      const name = await ask(provider, bank, request.accountNumber);
      if (name === undefined)
        throw new AppError(404, "account-not-found", `${bank.name} has no account ${request.accountNumber}`);
      const kept = await rememberResolvedBankAccount(db, scope, {
        bank_code: bank.code,
        account_number: request.accountNumber,
        account_name: name,
        provider: provider.name,
        resolved_at: new Date(),
      });
      return toResolvedRecord(bank, kept);
    },
  };
}

export type BankTools = ReturnType<typeof createBankTools>;
