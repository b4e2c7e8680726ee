/**
 * Which of the engine's flows a network message goes to (README.md, "Messages"). Pure: the table-driven test is its
 * specification.
 */
import type { Channel } from "../domain/pre-checks";
import type { TransactionMessage } from "./messages";

export type Flow =
  /** A new authorization of this type (requestAuthorization), answered once decided. */
  | { kind: "authorize"; type: "check" | "capture" }
  /** Recorded and acknowledged: the network decided in the issuer's stead (or tells of what it did). */
  | { kind: "advice" }
  /** The original approved capture reversed (requestReversal). */
  | { kind: "reverse" }
  /** The original approved capture's amount lowered to `amount` (requestAmountChange). */
  | { kind: "lower-amount"; amount: number; fees: number }
  /** Not a transaction the platform carries out: answered 12, nothing recorded. */
  | { kind: "unsupported"; why: string };

/** Transaction types (field 3, first two digits): goods and services, cash. */
const DEBITS = new Set(["00", "01"]);
/** Available funds inquiry, balance inquiry. */
const INQUIRIES = new Set(["30", "31"]);

export function flowOf(m: TransactionMessage): Flow {
  const transactionType = m.processingCode.slice(0, 2);
  switch (m.messageClass) {
    case "010":
    case "020": {
      if (INQUIRIES.has(transactionType)) return { kind: "authorize", type: "check" };
      if (!DEBITS.has(transactionType))
        return { kind: "unsupported", why: `transaction type ${transactionType} (only 00, 01, 30, 31)` };
      if (m.amount > 0) return { kind: "authorize", type: "capture" };
      // An authorization for 0 is an account verification: a check. A financial request for 0 moves nothing.
      return m.messageClass === "010"
        ? { kind: "authorize", type: "check" }
        : { kind: "unsupported", why: "a financial request for 0" };
    }
    case "012":
      return { kind: "advice" };
    case "040":
    case "042": {
      const replacement = m.replacement;
      if (!replacement || replacement.amount === 0) return { kind: "reverse" };
      return { kind: "lower-amount", amount: replacement.amount, fees: replacement.fee };
    }
  }
}

/** PAN entry modes (field 22, first two digits) of a card not present: keyed, credential on file, e-commerce. */
const CARD_NOT_PRESENT = new Set(["01", "10", "81", "82"]);
const ATM_MCC = "6011";

/** The engine's channel: ATM by MCC 6011 or a cash transaction, online when the card was not present, else POS. */
export function channelOf(m: Pick<TransactionMessage, "mcc" | "posEntryMode" | "processingCode">): Channel {
  if (m.mcc === ATM_MCC || m.processingCode.startsWith("01")) return "atm";
  if (m.posEntryMode && CARD_NOT_PRESENT.has(m.posEntryMode.slice(0, 2))) return "online";
  return "pos";
}
