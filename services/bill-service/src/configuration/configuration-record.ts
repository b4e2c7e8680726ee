import type { PaymentConfigurationRow } from "../store/configuration.store";

/** GET /tools/configuration: the payment defaults of the business in this mode, null where none is set. */
export function toConfigurationRecord(row: PaymentConfigurationRow) {
  return {
    object: "configuration" as const,
    payment: {
      payInAccount: row.pay_in_account,
      payOutAccount: row.pay_out_account,
      fees: { bankTransfer: row.bank_transfer_fee, billPayment: row.bill_payment_fee },
    },
  };
}
export type ConfigurationRecord = ReturnType<typeof toConfigurationRecord>;
