import {
  approve,
  approveCheck,
  decline,
  type ApproveAnswer,
  type AuthorizationAnswer,
  type CheckAnswer,
  type DeclineAnswer,
} from "./answers.js";

/**
 * The reference receiver's wallet rules (compatibility notes, last section), pure: a wallet has an available and a
 * locked balance (integer minor units); each authorization has a lien: what is locked for it and what was debited.
 */
export interface Wallet {
  active: boolean;
  holderName: string;
  available: number;
  locked: number;
}

export interface Lien {
  locked: number;
  debited: number;
}

export interface Outcome<A = AuthorizationAnswer> {
  answer: A;
  wallet: Wallet;
  lien: Lien;
}

/** A capture either locks funds (wallet and lien to save) or declines and changes nothing. */
export type CaptureOutcome = Outcome<ApproveAnswer> | { answer: DeclineAnswer; wallet?: undefined; lien?: undefined };

export interface CaptureRules {
  /** The receiver's own fee, locked and debited with the purchase (default 0). */
  ownFee?: number;
  /** The receiver's spending rules: false declines with `spending-control`. */
  withinSpendingRules?: (total: number) => boolean;
  /**
   * The request allows a partial approval (its partialApprovalAllowed): a wallet that cannot cover the whole amount
   * but covers the fees and some of it is approved for what it can cover (approve({ amount })).
   */
  partialApprovalAllowed?: boolean;
}

const unchanged = (answer: AuthorizationAnswer, wallet: Wallet, lien: Lien): Outcome => ({ answer, wallet, lien });
const released = (wallet: Wallet, lien: Lien): Wallet => ({
  ...wallet,
  locked: wallet.locked - lien.locked,
  available: wallet.available + lien.locked + lien.debited,
});

/** Check: unknown wallet, inactive wallet, or approve with the available balance and the holder's name. */
export function onCheck(wallet: Wallet | undefined): CheckAnswer {
  if (!wallet) return decline("account-not-found");
  if (!wallet.active) return decline("account-inactive");
  return approveCheck(wallet.available, wallet.holderName);
}

/**
 * Capture (for an authorization id not seen before; the receiver declines repeats): lock amount + fees (+ the
 * receiver's own fee) and approve, or decline: unknown, inactive, insufficient funds, spending rules, in that order.
 * Where the request allows partial approval, a wallet short of the whole amount that still covers the fees and part of
 * it is approved for that part (the lock is then all it has available).
 */
export function onCapture(
  wallet: Wallet | undefined,
  amount: number,
  fees: number,
  rules: CaptureRules = {},
): CaptureOutcome {
  if (!wallet) return { answer: decline("account-not-found") };
  if (!wallet.active) return { answer: decline("account-inactive") };
  const charges = fees + (rules.ownFee ?? 0);
  const coverable = Math.min(amount, wallet.available - charges);
  const approved = rules.partialApprovalAllowed && coverable >= 1 ? coverable : amount;
  const total = approved + charges;
  if (wallet.available < total) return { answer: decline("insufficient-funds") };
  if (rules.withinSpendingRules && !rules.withinSpendingRules(total)) return { answer: decline("spending-control") };
  return {
    answer: approved < amount ? approve({ amount: approved }) : approve(),
    wallet: { ...wallet, available: wallet.available - total, locked: wallet.locked + total },
    lien: { locked: total, debited: 0 },
  };
}

/**
 * Closed: `approved` turns the lien into a debit, once (a second time answers `duplicate-transaction`);
 * `declined` releases the lien. Unknown authorization (no lien): `invalid-transaction`.
 *
 * A closed event for a purchase already debited ends an amount update, and its `total` (amount + fees + own fee) is
 * what the platform kept: the debit follows it. That matters when this receiver's answer to the update came too late
 * (the platform applied the timeout default, the receiver had already debited the new amount): without it the wallet
 * and the card account drift apart. A debit that would take the wallet below zero is not made (the answer says
 * `insufficient-funds`; the operator settles it by hand).
 */
export function onClosed(wallet: Wallet, lien: Lien | undefined, status: string, total?: number): Outcome {
  if (!lien) return unchanged(decline("invalid-transaction"), wallet, { locked: 0, debited: 0 });
  const alreadyDebited = lien.locked === 0 && lien.debited > 0;
  if (
    alreadyDebited &&
    total !== undefined &&
    (status === "approved" || status === "declined") &&
    total !== lien.debited
  ) {
    const change = total - lien.debited;
    if (change > wallet.available) return unchanged(decline("insufficient-funds"), wallet, lien);
    return {
      answer: approve(),
      wallet: { ...wallet, available: wallet.available - change },
      lien: { locked: 0, debited: total },
    };
  }
  if (status === "approved") {
    if (alreadyDebited) return unchanged(decline("duplicate-transaction"), wallet, lien);
    return {
      answer: approve(),
      wallet: { ...wallet, locked: wallet.locked - lien.locked },
      lien: { locked: 0, debited: lien.debited + lien.locked },
    };
  }
  if (status === "declined") {
    return {
      answer: approve(),
      wallet: { ...wallet, locked: wallet.locked - lien.locked, available: wallet.available + lien.locked },
      lien: { ...lien, locked: 0 },
    };
  }
  return unchanged(decline("invalid-transaction"), wallet, lien);
}

/**
 * Amount update (`pending`), `newTotal` = new amount + fees (+ own fee): when the lien (locked and debited) plus the
 * available balance cannot cover it, release what is locked and decline `insufficient-funds` — the change fails while
 * the purchase at its earlier amount stands, as on the platform, so what was debited stays debited; else debit exactly
 * the new total.
 */
export function onAmountUpdate(wallet: Wallet, lien: Lien | undefined, newTotal: number): Outcome {
  if (!lien) return unchanged(decline("invalid-transaction"), wallet, { locked: 0, debited: 0 });
  const covered = lien.locked + lien.debited;
  if (newTotal > covered + wallet.available) {
    const unlocked = { ...wallet, locked: wallet.locked - lien.locked, available: wallet.available + lien.locked };
    return { answer: decline("insufficient-funds"), wallet: unlocked, lien: { locked: 0, debited: lien.debited } };
  }
  return {
    answer: approve(),
    wallet: { ...wallet, locked: wallet.locked - lien.locked, available: wallet.available - (newTotal - covered) },
    lien: { locked: 0, debited: newTotal },
  };
}

/** Reversal (`reversed`): everything locked or debited for the authorization goes back to the user. */
export function onReversal(wallet: Wallet, lien: Lien | undefined): Outcome {
  if (!lien) return unchanged(decline("invalid-transaction"), wallet, { locked: 0, debited: 0 });
  return { answer: approve(), wallet: released(wallet, lien), lien: { locked: 0, debited: 0 } };
}
