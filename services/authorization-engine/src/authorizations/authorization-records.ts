import { present, type Json } from "../record-shape";
import type { AuthorizationRow } from "../store/authorizations.store";
import type { TransactionRow } from "../store/transactions.store";

/** ISO 4217 numeric codes, as card network messages name currencies. */
const ISO_NUMERIC_CURRENCY: Record<string, string> = { NGN: "566", USD: "840" };

/** ISO 8583 response codes of the declines the platform and the receiver name. */
const DECLINE_RESPONSE_CODES: Record<string, string> = {
  "insufficient-funds": "51",
  "spending-control": "57",
  "account-inactive": "62",
  "account-not-found": "14",
  "invalid-transaction": "12",
  "duplicate-transaction": "94",
};
/** Declined because the receiver's answer never came (or was unusable): "issuer or switch inoperative". */
const NO_ANSWER_REASONS = new Set(["timeout-error", "webhook-error", "connection-error", "no-webhook"]);

/**
 * The ISO 8583 response code the network was answered with; undefined while the authorization is pending. 10: approved
 * for less than asked (a partial approval).
 */
export function networkResponseCode(
  row: Pick<AuthorizationRow, "status" | "decline_reason" | "status_reason" | "amount" | "requested_amount">,
): string | undefined {
  if (row.status === "pending") return undefined;
  if (row.status !== "declined") return row.amount < requestedAmount(row) ? "10" : "00";
  const byReason = row.decline_reason ? DECLINE_RESPONSE_CODES[row.decline_reason] : undefined;
  if (byReason) return byReason;
  return row.status_reason && NO_ANSWER_REASONS.has(row.status_reason) ? "91" : "05";
}

/** What the network asked for: `amount` unless a partial approval approved less. */
const requestedAmount = (row: Pick<AuthorizationRow, "amount" | "requested_amount">) =>
  row.requested_amount ?? row.amount;
/** The amount the network asked about: while an amount change waits for the receiver (pending), the new one. */
const askedAmount = (row: AuthorizationRow) => row.pending_amount ?? row.amount;
const askedRequestedAmount = (row: AuthorizationRow) => row.pending_amount ?? requestedAmount(row);
const askedFees = (row: AuthorizationRow) => (row.pending_amount !== null ? row.pending_fees : row.fees);

/**
 * The network's request and the platform's answer, as the original interface's GET shows them, built from what the
 * platform knows: the request as the network (in test mode the simulation) sent it — kept in networkData — and the
 * decision. What the simulated network does not send (a MAC, an acquirer id) is "".
 */
function networkMessages(row: AuthorizationRow) {
  const data = row.network_data;
  const requestId = data.reference ?? row.network_reference;
  const transactionReference = data.txnReference ?? "";
  const requestBody = {
    requestId,
    amount: askedRequestedAmount(row),
    walletId: row.account_id,
    transactionReference,
    mac: data.mac ?? "",
    acquiringInstitutionId: data.acquiringInstitutionId ?? "",
    terminalId: data.terminalId ?? "",
    terminalType: data.terminalType ?? row.channel,
    merchantId: row.merchant_id ?? data.merchantId ?? "",
    currencyCode: ISO_NUMERIC_CURRENCY[row.currency] ?? "",
    cardAcceptorNameLocation: data.cardAcceptorNameLocation ?? "",
    transactionDateTime: row.created_at.toISOString(),
  };
  const responseCode = networkResponseCode(row);
  const responseBody = responseCode && {
    amount: row.amount,
    mac: "",
    name: row.card_holder_name ?? "",
    requestId,
    responseCode,
    transactionReference,
  };
  return present({ rnn: data.rrn, requestBody, responseBody });
}

/**
 * An authorization as events carry it (interface.md): networkData holds only the network's strings. While an amount
 * change waits for the receiver (status pending), amount and fees are the new ones asked about. A capture also says
 * whether the decision asked about may approve less (partialApprovalAllowed) and what the network asked for
 * (requestedAmount: above amount after a partial approval); one that stand-in decided names its rule (standInRule).
 */
export function toAuthorizationEventRecord(row: AuthorizationRow): Json {
  return present({
    id: row.id,
    object: "card.authorization",
    card: row.card_id,
    customer: row.customer_id,
    account: row.account_id,
    type: row.type,
    status: row.status,
    amount: askedAmount(row),
    requestedAmount: row.type === "capture" ? askedRequestedAmount(row) : undefined,
    // Never for an amount change: while one is asked about (pending), false.
    partialApprovalAllowed:
      row.type === "capture" ? row.partial_approval_allowed && row.pending_amount === null : undefined,
    fees: askedFees(row),
    currency: row.currency,
    channel: row.channel,
    mcc: row.mcc,
    merchant: row.merchant_id,
    decisionType: row.decision_type,
    standInRule: row.stand_in_rule,
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

/**
 * An authorization as GET /card-authorizations shows it: the event record, with networkData as the original interface
 * shows it there — `rnn` (sic) mirroring `rrn`, and the network's `requestBody` and the platform's `responseBody`.
 */
export function toAuthorizationRecord(row: AuthorizationRow): Json {
  const record = toAuthorizationEventRecord(row);
  return { ...record, networkData: { ...row.network_data, ...networkMessages(row) } };
}

/** A card transaction. It never changes once made: updatedAt is createdAt. */
export function toTransactionRecord(row: TransactionRow): Json {
  const createdAt = row.created_at.toISOString();
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
    createdAt,
    updatedAt: createdAt,
  });
}
