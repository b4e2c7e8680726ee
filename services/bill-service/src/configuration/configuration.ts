import { paymentConfigurationRequestSchema, type PaymentConfigurationRequest } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { recordIdempotentAnswer, validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import type { ConfiguredFee } from "../domain/bill-fee";
import {
  findPaymentConfiguration,
  lockPaymentConfiguration,
  savePaymentConfiguration,
  type PaymentConfigurationRow,
} from "../store/configuration.store";
import { findProjectedFee } from "../store/fees.store";
import { toConfigurationRecord, type ConfigurationRecord } from "./configuration-record";
import { configuredFeeOf, requireProjectedFee } from "./configured-fees";

export interface ConfigurationOptions {
  db: Db;
  /** How long a fee unknown to the fees.v1 projection is waited for before a 404. */
  feeWaitMs: number;
}

/** A field left out keeps its value; null clears it. */
const merged = <T>(given: T | null | undefined, current: T | null): T | null => (given === undefined ? current : given);

function apply(current: PaymentConfigurationRow, request: PaymentConfigurationRequest): PaymentConfigurationRow {
  return {
    pay_in_account: merged(request.payInAccount, current.pay_in_account),
    pay_out_account: merged(request.payOutAccount, current.pay_out_account),
    bank_transfer_fee: merged(request.fees?.bankTransfer, current.bank_transfer_fee),
    bill_payment_fee: merged(request.fees?.billPayment, current.bill_payment_fee),
  };
}

/**
 * The payment defaults of a business per mode. Fee ids must name fees of the business in this mode (known from
 * fees.v1); account ids are checked for their form only: the accounts are the engine's, and its ledger refuses one
 * that is not the business's when a payment is debited from it.
 */
export function createConfiguration(opts: ConfigurationOptions) {
  const { db } = opts;

  const requireFees = async (scope: Scope, request: PaymentConfigurationRequest) => {
    const { bankTransfer, billPayment } = request.fees ?? {};
    if (bankTransfer) await requireProjectedFee(db, scope, bankTransfer, "fees.bankTransfer", opts.feeWaitMs);
    if (billPayment) await requireProjectedFee(db, scope, billPayment, "fees.billPayment", opts.feeWaitMs);
  };

  return {
    async get(scope: Scope): Promise<ConfigurationRecord> {
      return toConfigurationRecord(await findPaymentConfiguration(db, scope));
    },

    /** PUT /tools/configuration/payment: the configuration after the change. */
    async updatePayment(scope: Scope, body: unknown): Promise<ConfigurationRecord> {
      const request = validate(paymentConfigurationRequestSchema, body);
      await requireFees(scope, request);
      return db.tx(async (tx) => {
        const row = apply(await lockPaymentConfiguration(tx, scope), request);
        await savePaymentConfiguration(tx, scope, row);
        const record = toConfigurationRecord(row);
        await recordIdempotentAnswer(tx, 200, { code: "success", data: record });
        return record;
      });
    },
  };
}

export type Configuration = ReturnType<typeof createConfiguration>;

/** What a bill payment takes from the configuration: the account to debit by default and the fee to charge. */
export interface BillPaymentDefaults {
  payOutAccount: string | null;
  billPaymentFee: ConfiguredFee | null;
}

export async function billPaymentDefaults(db: Queryable, scope: Scope): Promise<BillPaymentDefaults> {
  const configuration = await findPaymentConfiguration(db, scope);
  const feeId = configuration.bill_payment_fee;
  const fee = feeId ? await findProjectedFee(db, scope, feeId) : undefined;
  return { payOutAccount: configuration.pay_out_account, billPaymentFee: fee ? configuredFeeOf(fee) : null };
}

/** What a payout takes from the configuration: the account to debit by default and the bank-transfer fee. */
export interface PayoutDefaults {
  payOutAccount: string | null;
  bankTransferFee: ConfiguredFee | null;
}

export async function payoutDefaults(db: Queryable, scope: Scope): Promise<PayoutDefaults> {
  const configuration = await findPaymentConfiguration(db, scope);
  const feeId = configuration.bank_transfer_fee;
  const fee = feeId ? await findProjectedFee(db, scope, feeId) : undefined;
  return { payOutAccount: configuration.pay_out_account, bankTransferFee: fee ? configuredFeeOf(fee) : null };
}
