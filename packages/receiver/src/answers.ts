/** The decline codes of the interface, plus the reference receiver's spending-control. */
export type DeclineCode =
  | "account-not-found"
  | "account-inactive"
  | "insufficient-funds"
  | "invalid-transaction"
  | "duplicate-transaction"
  | "spending-control";

export interface ApproveAnswer {
  action: "approve";
  cardBalance?: number;
  cardHolderName?: string;
  metadata?: Record<string, string | number | boolean>;
}
export interface DeclineAnswer {
  action: "decline";
  code: DeclineCode;
  metadata?: Record<string, string | number | boolean>;
}
export type AuthorizationAnswer = ApproveAnswer | DeclineAnswer;
/** A check can only be approved with an integer balance and a holder name (interface Rule 1). */
export type CheckAnswer = (ApproveAnswer & { cardBalance: number; cardHolderName: string }) | DeclineAnswer;

export const approve = (extra: Omit<ApproveAnswer, "action"> = {}): ApproveAnswer => ({ action: "approve", ...extra });

export function approveCheck(cardBalance: number, cardHolderName: string, metadata?: ApproveAnswer["metadata"]): CheckAnswer {
  if (!Number.isSafeInteger(cardBalance)) throw new RangeError("cardBalance must be an integer number of minor units");
  if (!cardHolderName) throw new RangeError("cardHolderName must not be empty");
  return { action: "approve", cardBalance, cardHolderName, ...(metadata ? { metadata } : {}) };
}

export const decline = (code: DeclineCode, metadata?: DeclineAnswer["metadata"]): DeclineAnswer => ({ action: "decline", code, ...(metadata ? { metadata } : {}) });
