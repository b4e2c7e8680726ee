import { describe, expect, it } from "vitest";
import { onAmountUpdate, onCapture, onCheck, onClosed, onReversal, type Lien, type Wallet } from "./lien.js";

const wallet: Wallet = { active: true, holderName: "Ada Obi", available: 100_000, locked: 0 };
const conserved = (w: Wallet, l: Lien) => w.available + w.locked + l.debited;

describe("the reference receiver's lien rules", () => {
  it("check: unknown, inactive, or the available balance and name", () => {
    expect(onCheck(undefined)).toEqual({ action: "decline", code: "account-not-found" });
    expect(onCheck({ ...wallet, active: false })).toEqual({ action: "decline", code: "account-inactive" });
    expect(onCheck(wallet)).toEqual({ action: "approve", cardBalance: 100_000, cardHolderName: "Ada Obi" });
  });

  it("capture: unknown, inactive, insufficient funds, spending rules, in that order; else lock amount + fees + own fee", () => {
    expect(onCapture(undefined, 1, 0).answer).toEqual({ action: "decline", code: "account-not-found" });
    expect(onCapture({ ...wallet, active: false, available: 0 }, 1, 0).answer).toEqual({
      action: "decline",
      code: "account-inactive",
    });
    const never = () => false;
    expect(onCapture(wallet, 90_000, 5_000, { ownFee: 5_001, withinSpendingRules: never }).answer).toEqual({
      action: "decline",
      code: "insufficient-funds",
    });
    expect(onCapture(wallet, 90_000, 5_000, { withinSpendingRules: (total) => total <= 50_000 }).answer).toEqual({
      action: "decline",
      code: "spending-control",
    });
    const out = onCapture(wallet, 50_000, 6_500, { ownFee: 500 });
    expect(out).toMatchObject({
      answer: { action: "approve" },
      wallet: { available: 43_000, locked: 57_000 },
      lien: { locked: 57_000, debited: 0 },
    });
    expect(onCapture(wallet, 100_000, 0).answer.action).toBe("approve");
  });

  it("capture allowing partial approval: a wallet short of the amount is approved for what it covers after fees", () => {
    const partial = { partialApprovalAllowed: true, ownFee: 500 };
    const short = { ...wallet, available: 30_000 };
    expect(onCapture(short, 50_000, 6_500, partial)).toMatchObject({
      answer: { action: "approve", amount: 23_000 },
      wallet: { available: 0, locked: 30_000 },
      lien: { locked: 30_000, debited: 0 },
    });
    expect(onCapture(wallet, 50_000, 6_500, partial).answer).toEqual({ action: "approve" });
    expect(onCapture({ ...wallet, available: 7_000 }, 50_000, 6_500, partial).answer).toEqual({
      action: "decline",
      code: "insufficient-funds",
    });
    expect(onCapture(short, 50_000, 6_500, { ownFee: 500 }).answer).toEqual({
      action: "decline",
      code: "insufficient-funds",
    });
    const approved = onCapture(short, 50_000, 6_500, partial);
    if (!approved.lien) throw new Error("expected a lien");
    expect(onClosed(approved.wallet, approved.lien, "approved", 23_000 + 6_500 + 500)).toMatchObject({
      answer: { action: "approve" },
      wallet: { available: 0, locked: 0 },
      lien: { locked: 0, debited: 30_000 },
    });
  });

  it("closed: approved debits the lien once; declined releases it; unknown or another status is invalid", () => {
    const captured = onCapture(wallet, 50_000, 0);
    if (!captured.lien) throw new Error("expected a lien");
    const approved = onClosed(captured.wallet, captured.lien, "approved");
    expect(approved).toMatchObject({ wallet: { available: 50_000, locked: 0 }, lien: { locked: 0, debited: 50_000 } });
    expect(onClosed(approved.wallet, approved.lien, "approved")).toMatchObject({
      answer: { code: "duplicate-transaction" },
      wallet: approved.wallet,
    });
    expect(onClosed(captured.wallet, captured.lien, "declined")).toMatchObject({
      answer: { action: "approve" },
      wallet: { available: 100_000, locked: 0 },
    });
    expect(onClosed(wallet, undefined, "approved").answer).toEqual({ action: "decline", code: "invalid-transaction" });
    expect(onClosed(captured.wallet, captured.lien, "pending")).toMatchObject({
      answer: { code: "invalid-transaction" },
      wallet: captured.wallet,
    });
  });

  it("closed after an amount update: the debit follows the total the platform kept", () => {
    const w = { ...wallet, available: 50_000 };
    // The receiver approved an update to 30,000 too late; the platform declined it and kept the earlier 50,000.
    const late = onAmountUpdate(w, { locked: 0, debited: 50_000 }, 30_000);
    const kept = onClosed(late.wallet, late.lien, "declined", 50_000);
    expect(kept).toMatchObject({
      answer: { action: "approve" },
      wallet: { available: 50_000, locked: 0 },
      lien: { locked: 0, debited: 50_000 },
    });
    // The platform's timeout default approved an update the receiver never saw: the debit grows to the new total.
    expect(onClosed(w, { locked: 0, debited: 50_000 }, "approved", 65_000)).toMatchObject({
      wallet: { available: 35_000 },
      lien: { debited: 65_000 },
    });
    // Nothing to follow: the same total is a repeat, and a first closed event still turns the lock into a debit.
    expect(onClosed(w, { locked: 0, debited: 50_000 }, "approved", 50_000).answer).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
    const captured = onCapture(wallet, 50_000, 0);
    if (!captured.lien) throw new Error("expected a lien");
    expect(onClosed(captured.wallet, captured.lien, "approved", 50_000)).toMatchObject({
      lien: { locked: 0, debited: 50_000 },
    });
    // More than the wallet holds: nothing changes, the answer says so.
    expect(
      onClosed({ ...wallet, available: 10_000 }, { locked: 0, debited: 50_000 }, "approved", 70_000),
    ).toMatchObject({
      answer: { action: "decline", code: "insufficient-funds" },
      wallet: { available: 10_000 },
      lien: { debited: 50_000 },
    });
  });

  it("amount update: covered → debit exactly the new total; not covered → what is locked comes back, the debit stays, decline", () => {
    const lien = { locked: 0, debited: 50_000 };
    const w = { ...wallet, available: 50_000 };
    expect(onAmountUpdate(w, lien, 80_000)).toMatchObject({
      answer: { action: "approve" },
      wallet: { available: 20_000 },
      lien: { debited: 80_000 },
    });
    expect(onAmountUpdate(w, lien, 30_000)).toMatchObject({
      answer: { action: "approve" },
      wallet: { available: 70_000 },
      lien: { debited: 30_000 },
    });
    expect(onAmountUpdate(w, lien, 100_000).answer.action).toBe("approve");
    const declined = onAmountUpdate(w, lien, 100_001);
    expect(declined).toMatchObject({
      answer: { action: "decline", code: "insufficient-funds" },
      wallet: { available: 50_000, locked: 0 },
      lien: { locked: 0, debited: 50_000 },
    });
    // Before the closed event turned the lien into a debit: the locked part counts and is released.
    const locked = { locked: 50_000, debited: 0 };
    const lockedWallet = { ...wallet, available: 50_000, locked: 50_000 };
    expect(onAmountUpdate(lockedWallet, locked, 60_000)).toMatchObject({
      wallet: { available: 40_000, locked: 0 },
      lien: { locked: 0, debited: 60_000 },
    });
    expect(onAmountUpdate(lockedWallet, locked, 100_001)).toMatchObject({
      wallet: { available: 100_000, locked: 0 },
      lien: { locked: 0, debited: 0 },
    });
    expect(onAmountUpdate(w, undefined, 1).answer).toEqual({ action: "decline", code: "invalid-transaction" });
  });

  it("reversal gives back what was debited and what is still locked; a second one changes nothing", () => {
    const w = { ...wallet, available: 50_000 };
    const reversed = onReversal(w, { locked: 0, debited: 50_000 });
    expect(reversed).toMatchObject({
      answer: { action: "approve" },
      wallet: { available: 100_000 },
      lien: { locked: 0, debited: 0 },
    });
    expect(onReversal(reversed.wallet, reversed.lien).wallet).toEqual(reversed.wallet);
    expect(
      onReversal({ ...wallet, available: 60_000, locked: 40_000 }, { locked: 40_000, debited: 0 }).wallet,
    ).toMatchObject({ available: 100_000, locked: 0 });
    expect(onReversal(w, undefined).answer).toEqual({ action: "decline", code: "invalid-transaction" });
  });

  it("no sequence of events creates or loses money (available + locked + debited stays the same)", () => {
    const start = conserved(wallet, { locked: 0, debited: 0 });
    const captured = onCapture(wallet, 40_000, 1_000);
    if (!captured.lien) throw new Error("expected a lien");
    const steps = [
      onClosed(captured.wallet, captured.lien, "approved"),
      onAmountUpdate(captured.wallet, captured.lien, 70_000),
      onAmountUpdate(captured.wallet, captured.lien, 200_000),
      onReversal(captured.wallet, captured.lien),
      onClosed(captured.wallet, captured.lien, "declined"),
      onClosed({ ...captured.wallet, locked: 0 }, { locked: 0, debited: captured.lien.locked }, "declined", 20_000),
    ];
    for (const step of steps) expect(conserved(step.wallet, step.lien)).toBe(start);
  });
});
