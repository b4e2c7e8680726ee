/**
 * The ISO 8583 response code (field 39) a card network is answered with: from an authorization's decision, or from
 * what the network interface found before any authorization was made. Pure; one table for the ISO 8583 interface
 * and for the response code GET /card-authorizations shows (authorization-records.ts).
 */
import type { AuthorizationStatus } from "./authorization";

/** What decided a declined authorization: which check failed, or why no usable answer came (its statusReason). */
const STATUS_REASON_CODES: Readonly<Record<string, string>> = {
  "insufficient-funds": "51",
  "invalid-transaction": "12",
  "channel-not-allowed": "57",
  "mcc-not-allowed": "57",
  "category-not-allowed": "57",
  "merchant-not-allowed": "57",
  "spending-limit-exceeded": "61",
  // No answer in time, or none usable: "issuer or switch inoperative", the network may stand in.
  "timeout-error": "91",
  "webhook-error": "91",
  "connection-error": "91",
  "no-webhook": "91",
  "platform-overloaded": "91",
  // The receiver answered, but not with an authorization response (or a check's approve without a balance).
  "invalid-response": "05",
};

/** The receiver's decline code (its declineReason; interface "Authorization response body"). */
const DECLINE_REASON_CODES: Readonly<Record<string, string>> = {
  "insufficient-funds": "51",
  "spending-control": "57",
  "account-inactive": "62",
  "account-not-found": "14",
  "invalid-transaction": "12",
  "duplicate-transaction": "94",
};

/** Do not honour: a decline that nothing names more precisely. */
export const DO_NOT_HONOUR = "05";

export interface DecisionOutcome {
  status: AuthorizationStatus;
  declineReason: string | null;
  statusReason: string | null;
  /** The amount approved (or asked, while undecided). */
  amount: number;
  /** What the network asked for; null on authorizations from before partial approvals. */
  requestedAmount: number | null;
}

/**
 * The response code of an authorization's decision; undefined while it is pending. 00 approved (a reversed one was
 * approved), 10 approved for less than asked (partial approval). A decline: by which check failed or why no answer
 * came (statusReason) when that names one, else by the receiver's code (declineReason), else 05 do not honour.
 */
export function responseCodeOfDecision(a: DecisionOutcome): string | undefined {
  if (a.status === "pending") return undefined;
  if (a.status !== "declined") return a.amount < (a.requestedAmount ?? a.amount) ? "10" : "00";
  const byStatusReason = a.statusReason ? STATUS_REASON_CODES[a.statusReason] : undefined;
  const byDeclineReason = a.declineReason ? DECLINE_REASON_CODES[a.declineReason] : undefined;
  return byStatusReason ?? byDeclineReason ?? DO_NOT_HONOUR;
}

/** What the network interface answers without a decision: no authorization was made, or none could be waited for. */
export type InterfaceOutcome =
  /** An advice recorded, a reversal carried out (or with nothing left to reverse), a network message acknowledged. */
  | "accepted"
  /** No card has this PAN (or more than one does, with this expiry). */
  | "unknown-card"
  /** The card's expiry is past, or field 14 is not the card's expiry. */
  | "expired-card"
  /** Field 48's CVV2 is not the card's. ISO 8583:1987 has no code of its own for it. */
  | "cvv2-mismatch"
  /** The card, its customer or its funding account is not active: the engine drops the request (nothing created). */
  | "card-not-usable"
  /** Not a transaction the platform carries out: a refund, a zero-amount financial, another currency, a check reversed. */
  | "invalid-transaction"
  /** The message could not be read, or a field it needs is missing or malformed. */
  | "format-error"
  /** A reversal names an original the platform does not know. */
  | "original-not-found"
  /** The engine refused the request (overloaded), or its decision was not known before the network's deadline. */
  | "issuer-unavailable"
  /** Anything unexpected: the request failed (the error is logged with an id). */
  | "system-malfunction";

export const INTERFACE_RESPONSE_CODES: Readonly<Record<InterfaceOutcome, string>> = {
  accepted: "00",
  "unknown-card": "14",
  "expired-card": "54",
  "cvv2-mismatch": DO_NOT_HONOUR,
  "card-not-usable": "62",
  "invalid-transaction": "12",
  "format-error": "30",
  "original-not-found": "25",
  "issuer-unavailable": "91",
  "system-malfunction": "96",
};

/** Every statusReason the engine records, for the test that checks each has its code. */
export const STATUS_REASONS_WITH_CODES = Object.keys(STATUS_REASON_CODES);
