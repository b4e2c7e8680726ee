/** Where account holders' names come from: a provider per mode. Test mode asks the sandbox; live mode needs a real one. */
import { AppError } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { sandboxAccountName } from "../billers/sandbox-rules";
import type { Bank } from "../domain/banks";

/**
 * Asks a bank (through NIBSS name enquiry or an aggregator) whose account a number is. Each call gets an AbortSignal
 * that fires at the lookup deadline; a call that throws or outlasts it means the bank could not be asked.
 */
export interface AccountNameProvider {
  /** Kept with every name it resolved. */
  readonly name: string;
  /** The account holder's name; undefined when the bank has no such account. */
  resolve(bank: Bank, accountNumber: string, signal: AbortSignal): Promise<string | undefined>;
}

/**
 * The sandbox's test numbers: the four digits before the check digit (the 6th to 9th) choose what happens, at any
 * bank whose check digit the number passes. Any other number is an account whose holder's name is derived from it.
 */
export const SANDBOX_ACCOUNT_BEHAVIOURS = {
  "0000": "no-such-account",
  "1111": "bank-unreachable",
} as const;

export class BankUnreachableError extends Error {
  constructor(bank: Bank) {
    super(`${bank.name} did not answer the name enquiry`);
    this.name = "BankUnreachableError";
  }
}

export const sandboxAccountNames: AccountNameProvider = {
  name: "sandbox",
  async resolve(bank, accountNumber) {
    const behaviour = SANDBOX_ACCOUNT_BEHAVIOURS[accountNumber.slice(5, 9) as keyof typeof SANDBOX_ACCOUNT_BEHAVIOURS];
    if (behaviour === "no-such-account") return undefined;
    if (behaviour === "bank-unreachable") throw new BankUnreachableError(bank);
    return sandboxAccountName(`${bank.code}:${accountNumber}`);
  },
};

/**
 * The provider for the caller's mode: the sandbox in test mode, the configured one in live mode. Live mode without a
 * provider refuses rather than make names up for real transfers: a 403, as FX does (a 5xx would invite retries that
 * cannot succeed until an operator configures a provider).
 */
export function accountNamesFor(scope: Scope, live: AccountNameProvider | undefined): AccountNameProvider {
  if (scope.mode === "test") return sandboxAccountNames;
  if (live) return live;
  throw new AppError(
    403,
    "bank-provider-not-configured",
    "Bank account names cannot be resolved in live mode: no live account-name provider is configured " +
      "(the bill-service's liveAccountNames option). Test keys use the sandbox.",
  );
}
