import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

/** A row of bills.payment_configurations: a business's payment defaults in one mode (null: not set). */
export interface PaymentConfigurationRow {
  pay_in_account: string | null;
  pay_out_account: string | null;
  bank_transfer_fee: string | null;
  bill_payment_fee: string | null;
}

export const NO_CONFIGURATION: PaymentConfigurationRow = {
  pay_in_account: null,
  pay_out_account: null,
  bank_transfer_fee: null,
  bill_payment_fee: null,
};

const COLUMNS = "pay_in_account, pay_out_account, bank_transfer_fee, bill_payment_fee";

export async function findPaymentConfiguration(db: Queryable, scope: Scope): Promise<PaymentConfigurationRow> {
  const { rows } = await db.query<PaymentConfigurationRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM bills.payment_configurations WHERE business_id = $1 AND mode = $2`,
    [scope.businessId, scope.mode],
  );
  return rows[0] ?? NO_CONFIGURATION;
}

/** The configuration as it is now, locked until the caller's transaction ends (writes to it then queue behind). */
export async function lockPaymentConfiguration(tx: Queryable, scope: Scope): Promise<PaymentConfigurationRow> {
  await tx.query(
    `INSERT INTO bills.payment_configurations (business_id, mode, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (business_id, mode) DO NOTHING`,
    [scope.businessId, scope.mode],
  );
  const { rows } = await tx.query<PaymentConfigurationRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM bills.payment_configurations WHERE business_id = $1 AND mode = $2 FOR UPDATE`,
    [scope.businessId, scope.mode],
  );
  return rows[0]!;
}

export async function savePaymentConfiguration(
  tx: Queryable,
  scope: Scope,
  row: PaymentConfigurationRow,
): Promise<void> {
  await tx.query(
    `UPDATE bills.payment_configurations
        SET pay_in_account = $3, pay_out_account = $4, bank_transfer_fee = $5, bill_payment_fee = $6, updated_at = now()
      WHERE business_id = $1 AND mode = $2`,
    [
      scope.businessId,
      scope.mode,
      row.pay_in_account,
      row.pay_out_account,
      row.bank_transfer_fee,
      row.bill_payment_fee,
    ],
  );
}
