/** Stored rows → the public records the API answers with and events carry (compatibility notes' field names). */
import type { AccountRow } from "./store/accounts.store";
import type { AuthorizationRow } from "./store/authorizations.store";
import type { CardRow } from "./store/cards.store";
import type { ProgramRow } from "./store/programs.store";
import type { TransactionRow } from "./store/transactions.store";

type Json = Record<string, unknown>;

/** Leaves out the keys whose value is null or undefined, as the original interface omits absent fields. */
const present = (record: Json): Json =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined));

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

export function toProgramRecord(row: ProgramRow): Json {
  return present({
    id: row.id,
    object: "card.program",
    name: row.name,
    description: row.description,
    network: row.network,
    type: row.type,
    quantity: row.quantity,
    currency: row.currency,
    distribution: row.distribution,
    personalization: row.personalization,
    authorization: present({
      fundingSourceType: row.funding_source_type,
      settlementAccount: row.settlement_account_id,
      transactionFee: row.transaction_fee,
      webhook: row.webhook_id,
      timeoutDefault: row.timeout_default,
    }),
    status: row.status,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}

export function toCardRecord(row: CardRow): Json {
  return {
    id: row.id,
    object: "card",
    type: row.type,
    network: row.network,
    status: row.status,
    currency: row.currency,
    customer: row.customer_id,
    program: row.program_id,
    reference: row.reference,
    fundingSource: row.funding_account_id,
    details: { last4: row.last4, expiry: row.expiry, cardHolderName: row.card_holder_name },
    controls: row.controls,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * An authorization as the API and its events show it. While an amount change waits for the receiver (status
 * pending), amount and fees are the new ones asked about.
 */
export function toAuthorizationRecord(row: AuthorizationRow): Json {
  const asking = row.pending_amount !== null;
  return present({
    id: row.id,
    object: "card.authorization",
    card: row.card_id,
    customer: row.customer_id,
    account: row.account_id,
    type: row.type,
    status: row.status,
    amount: asking ? row.pending_amount : row.amount,
    fees: asking ? row.pending_fees : row.fees,
    currency: row.currency,
    channel: row.channel,
    mcc: row.mcc,
    merchant: row.merchant_id,
    decisionType: row.decision_type,
    statusReason: row.status_reason,
    declineReason: row.decline_reason,
    reserved: row.reserved,
    cardBalance: row.card_balance,
    cardHolderName: row.card_holder_name,
    networkData: row.network_data,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}

export function toTransactionRecord(row: TransactionRow): Json {
  return present({
    id: row.id,
    object: "card.transaction",
    authorization: row.authorization_id,
    source: row.authorization_id,
    card: row.card_id,
    customer: row.customer_id,
    type: row.type,
    channel: row.channel,
    currency: row.currency,
    amount: row.amount,
    fees: row.fees,
    mcc: row.mcc,
    networkData: row.network_data,
    createdAt: row.created_at.toISOString(),
  });
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
