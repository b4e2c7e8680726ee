/**
 * The answer message to a network's request: the request's identifying fields echoed, the response code (39), and for
 * approvals the approval code (38) and the amounts (4, 54). Pure.
 */
import { createHash } from "node:crypto";
import type { FieldValue, IsoMessage } from "./iso8583/packer";
import { answerMtiOf } from "./messages";

/** What the platform answers a message, as engine.network_messages keeps it (never the PAN: it is echoed anew). */
export interface Answer {
  /** Field 39. */
  code: string;
  /** Field 38, for an approval. */
  approvalCode?: string;
  /** Field 4 of a partial approval (10): the amount approved; the request's field 4 otherwise. */
  approvedAmount?: number;
  /** Field 54: a check's balance, or a partial approval's original amount. */
  additionalAmounts?: string;
}

/** The fields an answer carries back as the request had them: the network matches answers on 11 and 37. */
export const ECHOED_FIELDS = [2, 3, 4, 7, 11, 12, 13, 32, 37, 41, 42, 49, 70, 90, 95] as const;

export function answerTo(request: IsoMessage, answer: Answer): IsoMessage {
  const fields: Record<number, FieldValue> = {};
  for (const field of ECHOED_FIELDS) if (request.fields[field] !== undefined) fields[field] = request.fields[field];
  if (answer.approvedAmount !== undefined) fields[4] = String(answer.approvedAmount).padStart(12, "0");
  if (answer.approvalCode !== undefined) fields[38] = answer.approvalCode;
  fields[39] = answer.code;
  if (answer.additionalAmounts !== undefined) fields[54] = answer.additionalAmounts;
  return { mti: answerMtiOf(request.mti) ?? request.mti, fields };
}

/** Field 54's amount types: 02 available balance; 57 the original amount (of a partial approval). */
export type AmountType = "02" | "57";

/** One field 54 amount: account type 00, amount type, ISO 4217 numeric currency, C or D, 12 digits. */
export function additionalAmount(amountType: AmountType, currency: string, amount: number): string {
  const sign = amount < 0 ? "D" : "C";
  return `00${amountType}${currency}${sign}${String(Math.abs(amount)).padStart(12, "0")}`;
}

/** Field 38: 6 digits from the authorization id, so a repeat is answered with the same code. */
export function approvalCodeOf(authorizationId: string): string {
  const digest = createHash("sha256").update(authorizationId).digest();
  return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, "0");
}
