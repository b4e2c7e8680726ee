/** The rules of a payout (POST /payments/payouts) that need no I/O: what is paid, to which bank account, at what fee. */
import { feeCharge, type PayoutMethod, type PayoutRequest } from "@cardhold/contracts";
import type { FieldProblem } from "@cardhold/platform";
import { findBank, type Bank } from "./banks";
import type { ConfiguredFee } from "./bill-fee";
import { isValidNuban, NUBAN } from "./nuban";
import type { FeeItem } from "./payment-record";

/** The methods paid out; the others of the interface are answered 422 method-not-supported. */
export const SUPPORTED_PAYOUT_METHODS: readonly PayoutMethod[] = ["bank-transfer"];

/** Why a payout cannot be made as asked, whatever its details: a 422 with this code. */
export interface Unsupported {
  code: "method-not-supported" | "currency-not-supported";
  message: string;
}

/**
 * `transfer` is not taken for a bank transfer: its option is `destination` (an `ac.` account), so it moves money
 * between accounts on the platform, and paying a bank account in its name would guess at what was meant.
 */
export function unsupportedPayout(method: PayoutMethod, currency: string): Unsupported | undefined {
  if (!SUPPORTED_PAYOUT_METHODS.includes(method))
    return {
      code: "method-not-supported",
      message: `Payouts by ${method} are not supported; supported: ${SUPPORTED_PAYOUT_METHODS.join(", ")}`,
    };
  if (currency !== "NGN")
    return {
      code: "currency-not-supported",
      message: `A bank transfer to a Nigerian bank is paid in NGN, not ${currency}`,
    };
  return undefined;
}

export type BankDestination = { ok: true; bank: Bank; accountNumber: string } | { ok: false; problems: FieldProblem[] };

/** The bank account a bank transfer's options name; every problem at once, as `options.<field>`. */
export function bankTransferDestination(options: PayoutRequest["options"]): BankDestination {
  const problems: FieldProblem[] = [];
  const { accountNumber, bankCode } = options;
  if (accountNumber === undefined)
    problems.push({ path: "options.accountNumber", message: "is required for a bank transfer" });
  else if (!NUBAN.test(accountNumber))
    problems.push({ path: "options.accountNumber", message: "must be the 10-digit account number (NUBAN)" });
  const bank = bankCode === undefined ? undefined : findBank(bankCode);
  if (bankCode === undefined) problems.push({ path: "options.bankCode", message: "is required for a bank transfer" });
  else if (!bank)
    problems.push({
      path: "options.bankCode",
      message: `no bank has the code ${bankCode}; GET /tools/banks lists them (NIP code 000013 or CBN code 058)`,
    });
  if (problems.length > 0 || !bank || accountNumber === undefined) return { ok: false, problems };
  if (!isValidNuban(bank.code, accountNumber))
    return {
      ok: false,
      problems: [
        { path: "options.accountNumber", message: `not an account number at ${bank.name}: its check digit is wrong` },
      ],
    };
  return { ok: true, bank, accountNumber };
}

export type PayoutFee = { ok: true; fee: number; breakdown: FeeItem[] } | { ok: false; problem: FieldProblem };

const charged = (fee: ConfiguredFee, amount: number): PayoutFee => {
  const charge = feeCharge(fee.terms, amount);
  return {
    ok: true,
    fee: charge,
    breakdown: [{ amount: charge, group: "bank-transfer", type: fee.terms.structure, fee: fee.id }],
  };
};

/**
 * What a payout costs on top of its amount: the fee the request names; else the configured bank-transfer fee when it
 * is in the payout's currency (a fee is never charged across currencies, as for bill payments); else nothing. A
 * named fee in another currency is a mistake of the request, not something to skip silently.
 */
export function payoutFee(
  amount: number,
  currency: string,
  named: ConfiguredFee | null,
  configured: ConfiguredFee | null,
): PayoutFee {
  if (named) {
    if (named.currency !== currency)
      return {
        ok: false,
        problem: { path: "fee", message: `fee ${named.id} is in ${named.currency}; the payout is in ${currency}` },
      };
    return charged(named, amount);
  }
  if (configured && configured.currency === currency) return charged(configured, amount);
  return { ok: true, fee: 0, breakdown: [] };
}
