import type { PayoutRequest } from "@cardhold/contracts";
import type { Queryable } from "@cardhold/db";
import {
  AppError,
  badRequest,
  type FieldProblem,
  type ProjectedCustomer,
  type RequestContext,
} from "@cardhold/platform";
import type { BankTools } from "../banks/bank-tools";
import { payoutDefaults } from "../configuration/configuration";
import { configuredFeeOf, requireProjectedFee } from "../configuration/configured-fees";
import type { Bank } from "../domain/banks";
import type { ConfiguredFee } from "../domain/bill-fee";
import type { FeeItem } from "../domain/payment-record";
import { bankTransferDestination, payoutFee, unsupportedPayout } from "../domain/payouts";
import { activeCustomer } from "../payments/check-bill";
import { railFor, type BankRails } from "./bank-rail";

type Scope = Pick<RequestContext, "businessId" | "mode">;

/** A payout request that passed every check: where the money goes, what it costs, which account pays. */
export interface CheckedPayout {
  bank: Bank;
  accountNumber: string;
  /** The beneficiary's name, from the bank's name enquiry. */
  accountName: string;
  fee: number;
  feeBreakdown: FeeItem[];
  /** The account to debit: the request's debitSource, else the configured payOutAccount, else null (the default). */
  debitSource: string | null;
  customer: ProjectedCustomer | null;
}

export interface PayoutCheckOptions {
  db: Queryable;
  bankTools: BankTools;
  rails: BankRails;
  /** How long a customer the projection does not know yet is waited for (customers.v1 may lag the API). */
  customerWaitMs: number;
  /** How long a fee the projection does not know yet is waited for (fees.v1 may lag the API). */
  feeWaitMs: number;
}

const invalid = (problems: FieldProblem[]) =>
  badRequest(`Invalid request body: ${problems.map((p) => p.path).join(", ")}`, problems);

/**
 * The checks of POST /payments/payouts, none of which moves money: the method and currency (422), the bank account's
 * form and check digit (400), the rail of the mode (403 in live mode without one), the customer, the fee, and last the
 * bank's name enquiry (404 no such account, 503 the bank did not answer), whose name the transfer is made to.
 */
export function createPayoutChecks(opts: PayoutCheckOptions) {
  const namedFee = async (scope: Scope, id: string | undefined): Promise<ConfiguredFee | null> =>
    id ? configuredFeeOf(await requireProjectedFee(opts.db, scope, id, "fee", opts.feeWaitMs)) : null;

  return async function checkPayout(scope: Scope, request: PayoutRequest): Promise<CheckedPayout> {
    const unsupported = unsupportedPayout(request.method, request.currency);
    if (unsupported) throw new AppError(422, unsupported.code, unsupported.message);
    const destination = bankTransferDestination(request.options);
    if (!destination.ok) throw invalid(destination.problems);
    railFor(scope.mode, opts.rails);
    const customer = request.customer
      ? await activeCustomer(opts.db, scope, request.customer, opts.customerWaitMs)
      : null;
    const defaults = await payoutDefaults(opts.db, scope);
    const fee = payoutFee(
      request.amount,
      request.currency,
      await namedFee(scope, request.fee),
      defaults.bankTransferFee,
    );
    if (!fee.ok) throw invalid([fee.problem]);
    const { bank, accountNumber } = destination;
    const account = await opts.bankTools.resolve(scope, { accountNumber, bankCode: bank.code });
    return {
      bank,
      accountNumber,
      accountName: account.accountName,
      fee: fee.fee,
      feeBreakdown: fee.breakdown,
      debitSource: request.debitSource ?? defaults.payOutAccount,
      customer,
    };
  };
}

export type CheckPayout = ReturnType<typeof createPayoutChecks>;
