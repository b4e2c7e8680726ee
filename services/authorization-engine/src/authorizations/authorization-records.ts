import { ISO_NUMERIC_CURRENCY } from "../domain/iso4217";
import { responseCodeOfDecision } from "../domain/network-response-codes";
import { present, type Json } from "../record-shape";
import type { AuthorizationRow } from "../store/authorizations.store";
import type { TransactionRow } from "../store/transactions.store";

/**
 * The ISO 8583 response code the network was answered with; undefined while the authorization is pending. 10: approved
 * for less than asked (a partial approval). The table is the ISO 8583 interface's (domain/network-response-codes.ts).
 */
export function networkResponseCode(
  row: Pick<AuthorizationRow, "status" | "decline_reason" | "status_reason" | "amount" | "requested_amount">,
): string | undefined {
  return responseCodeOfDecision({
    status: row.status,
    declineReason: row.decline_reason,
    statusReason: row.status_reason,
    amount: row.amount,
    requestedAmount: row.requested_amount,
  });
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
 * (requestedAmount: above amount after a partial approval); one that stand-in decided names its rule (standInRule)
 * and whose rules they were (standInSource: the card program's, or the deciding webhook's).
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
    standInSource: row.stand_in_rule === null ? undefined : (row.stand_in_source ?? "program"),
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
