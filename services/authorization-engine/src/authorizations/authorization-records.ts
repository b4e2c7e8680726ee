import { present, type Json } from "../record-shape";
import type { AuthorizationRow } from "../store/authorizations.store";
import type { TransactionRow } from "../store/transactions.store";

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
