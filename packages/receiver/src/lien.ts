import { approve, approveCheck, decline, type AuthorizationAnswer, type CheckAnswer } from "./answers";

/**
 * The reference receiver's wallet rules (compatibility notes, last section), pure: a wallet has an available and a
 * locked balance; each authorization has a lien (locked for it) and what was debited for it.
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

const NO_LIEN: Lien = { locked: 0, debited: 0 };

export function onCheck(wallet: Wallet | undefined): CheckAnswer {
  if (!wallet) return decline("account-not-found");
  if (!wallet.active) return decline("account-inactive");
  return approveCheck(wallet.available, wallet.holderName);
}

/** Capture: lock amount + fees (+ the receiver's own fee) and approve, or decline. */
export function onCapture(wallet: Wallet | undefined, amount: number, fees: number, ownFee = 0): Outcome | { answer: AuthorizationAnswer } {
  if (!wallet) return { answer: decline("account-not-found") };
  if (!wallet.active) return { answer: decline("account-inactive") };
  const total = amount + fees + ownFee;
  if (wallet.available < total) return { answer: decline("insufficient-funds") };
  return {
    answer: approve(),
    wallet: { ...wallet, available: wallet.available - total, locked: wallet.locked + total },
    lien: { locked: total, debited: 0 },
  };
}

/** Closed: approved turns the lien into a debit (once); declined gives the lien back. */
export function onClosed(wallet: Wallet, lien: Lien | undefined, status: string): Outcome {
  if (!lien) return { answer: decline("invalid-transaction"), wallet, lien: NO_LIEN };
  if (status === "approved") {
    if (lien.locked === 0 && lien.debited > 0) return { answer: decline("duplicate-transaction"), wallet, lien };
    return { answer: approve(), wallet: { ...wallet, locked: wallet.locked - lien.locked }, lien: { locked: 0, debited: lien.debited + lien.locked } };
  }
  return {
    answer: approve(),
    wallet: { ...wallet, locked: wallet.locked - lien.locked, available: wallet.available + lien.locked },
    lien: { ...lien, locked: 0 },
  };
}

/** Amount update (pending): cover the new total from the lien, the earlier debit and the available balance, or decline. */
export function onAmountUpdate(wallet: Wallet, lien: Lien, newTotal: number): Outcome {
  const covered = lien.locked + lien.debited;
  if (newTotal > covered + wallet.available) {
    return {
      answer: decline("insufficient-funds"),
      wallet: { ...wallet, locked: wallet.locked - lien.locked, available: wallet.available + lien.locked },
      lien: { ...lien, locked: 0 },
    };
  }
  return {
    answer: approve(),
    wallet: { ...wallet, locked: wallet.locked - lien.locked, available: wallet.available - (newTotal - covered) },
    lien: { locked: 0, debited: newTotal },
  };
}

/** Reversal: what was debited goes back to the user. */
export function onReversal(wallet: Wallet, lien: Lien): Outcome {
  return { answer: approve(), wallet: { ...wallet, available: wallet.available + lien.debited }, lien: { ...lien, debited: 0 } };
}
