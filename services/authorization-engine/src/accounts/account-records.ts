/** Account rows → the account, balance and log records the API answers with. */
import { present, type Json } from "../record-shape";
import type { AccountRow } from "../store/accounts.store";

export function toAccountRecord(row: AccountRow): Json {
  return present({
    id: row.id,
    object: "account",
    name: row.name,
    type: row.type,
    currency: row.currency,
    status: row.status,
    customer: row.customer_id,
    reference: row.reference,
    settlementAccount: row.settlement_account_id,
    isDefault: row.role === "settlement",
    depositChannels: row.deposit_channels,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}

export function toBalanceRecord(row: AccountRow): Json {
  return {
    object: "balance",
    account: row.id,
    currency: row.currency,
    available: row.posted - row.held,
    ledger: row.posted,
    held: row.held,
  };
}

export interface LedgerEntryRow {
  id: string;
  movement_id: string;
  account_id: string;
  amount: number;
  balance_after: number | null;
  kind: string;
  reference: string;
  description: string;
  currency: string;
  created_at: Date;
}

export function toLogRecord(row: LedgerEntryRow): Json {
  return present({
    id: row.id,
    object: "account.log",
    account: row.account_id,
    movement: row.movement_id,
    type: row.amount < 0 ? "debit" : "credit",
    kind: row.kind,
    amount: row.amount,
    balanceAfter: row.balance_after,
    currency: row.currency,
    reference: row.reference,
    description: row.description,
    createdAt: row.created_at.toISOString(),
  });
}
