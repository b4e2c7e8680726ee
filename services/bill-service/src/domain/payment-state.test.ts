import { describe, expect, it } from "vitest";
import {
  dueAction,
  paymentEventKind,
  transition,
  type BillerStatus,
  type PaymentEffect,
  type PaymentInput,
  type PaymentState,
  type PaymentStatus,
} from "./payment-state";

const schedule = { billerMs: [100, 200, 400], ledgerMs: [1_000, 5_000] };

const state = (status: PaymentStatus, billerStatus: BillerStatus = "not-called", attempts = 0): PaymentState => ({
  status,
  billerStatus,
  attempts,
  failureReason: null,
  account: null,
  billerReference: null,
  output: null,
});

const debitOk: PaymentInput = { type: "debit-result", succeeded: true, account: "ac.main" };
const debitFailed: PaymentInput = { type: "debit-result", succeeded: false, reason: "insufficient-funds" };
const refundOk: PaymentInput = { type: "refund-result", succeeded: true, reason: null };
const refundFailed: PaymentInput = { type: "refund-result", succeeded: false, reason: "debit-not-found" };
const paid: PaymentInput = {
  type: "biller-answer",
  answer: { status: "successful", billerReference: "B1", output: { token: "1234" } },
};
const declined: PaymentInput = {
  type: "biller-answer",
  answer: { status: "failed", billerReference: "B1", reason: "biller-declined" },
};
const pending: PaymentInput = { type: "biller-answer", answer: { status: "pending", billerReference: "B1" } };
const unknown: PaymentInput = { type: "biller-answer", answer: { status: "unknown" } };
const due: PaymentInput = { type: "check-due" };

const completed: PaymentEffect = { type: "publish-event", outcome: "completed" };
const failedEvent: PaymentEffect = { type: "publish-event", outcome: "failed" };

describe("payment transitions", () => {
  it.each<[string, PaymentState, PaymentInput, Partial<PaymentState>, PaymentEffect[], number | null]>([
    [
      "debit ok → processing, biller due now",
      state("debiting"),
      debitOk,
      { status: "processing", billerStatus: "not-called", account: "ac.main" },
      [],
      0,
    ],
    [
      "debit failed → failed with the ledger's reason",
      state("debiting"),
      debitFailed,
      { status: "failed", failureReason: "insufficient-funds" },
      [failedEvent],
      null,
    ],
    [
      "no debit result in time → resend, longer wait",
      state("debiting"),
      due,
      { status: "debiting", attempts: 1 },
      [{ type: "send-debit" }],
      5_000,
    ],
    [
      "resends keep the last delay",
      state("debiting", "not-called", 4),
      due,
      { attempts: 5 },
      [{ type: "send-debit" }],
      5_000,
    ],
    [
      "biller ok → successful with its output",
      state("processing"),
      paid,
      { status: "successful", billerStatus: "successful", billerReference: "B1", output: { token: "1234" } },
      [completed],
      null,
    ],
    [
      "biller declined → refunding",
      state("processing"),
      declined,
      { status: "refunding", billerStatus: "failed", failureReason: "biller-declined" },
      [{ type: "send-refund" }],
      1_000,
    ],
    [
      "biller pending → ask again",
      state("processing"),
      pending,
      { status: "processing", billerStatus: "pending", attempts: 1, billerReference: "B1" },
      [],
      100,
    ],
    [
      "still pending → wait longer",
      state("processing", "pending", 1),
      pending,
      { billerStatus: "pending", attempts: 2 },
      [],
      200,
    ],
    [
      "pending then ok",
      state("processing", "pending", 3),
      paid,
      { status: "successful", attempts: 0 },
      [completed],
      null,
    ],
    [
      "pending then declined",
      state("processing", "pending", 2),
      declined,
      { status: "refunding" },
      [{ type: "send-refund" }],
      1_000,
    ],
    [
      "no answer after a call → unknown, ask again",
      state("processing", "not-called"),
      unknown,
      { status: "processing", billerStatus: "unknown", attempts: 1 },
      [],
      100,
    ],
    [
      "no answer while pending stays pending",
      state("processing", "pending", 1),
      unknown,
      { billerStatus: "pending", attempts: 2 },
      [],
      200,
    ],
    ["refund done → failed", state("refunding", "failed"), refundOk, { status: "failed" }, [failedEvent], null],
    [
      "refund refused (nothing to give back) → failed",
      state("refunding", "failed"),
      refundFailed,
      { status: "failed" },
      [failedEvent],
      null,
    ],
    [
      "no refund result in time → resend",
      state("refunding", "failed"),
      due,
      { status: "refunding", attempts: 1 },
      [{ type: "send-refund" }],
      5_000,
    ],
  ])("%s", (_name, from, input, expected, effects, nextCheckInMs) => {
    const result = transition(from, input, schedule);
    expect(result.kind).toBe("moved");
    if (result.kind !== "moved") return;
    expect(result.state).toMatchObject(expected);
    expect(result.effects).toEqual(effects);
    expect(result.nextCheckInMs).toBe(nextCheckInMs);
  });

  it.each<[string, PaymentState, PaymentInput]>([
    ["a second debit result after the first", state("processing"), debitOk],
    ["a debit failure after the debit succeeded", state("processing"), debitFailed],
    ["a biller answer before the debit", state("debiting"), paid],
    ["a refund result while debiting", state("debiting"), refundOk],
    ["a refund result while processing", state("processing"), refundOk],
    ["a biller answer while refunding", state("refunding", "failed"), paid],
    ["a debit result while refunding", state("refunding", "failed"), debitOk],
    ["check-due while processing (the worker asks the biller instead)", state("processing"), due],
    ["anything after success", state("successful", "successful"), declined],
    ["a refund result after success", state("successful", "successful"), refundOk],
    ["anything after failure", state("failed"), debitOk],
    ["a resend after failure", state("failed"), due],
  ])("ignores %s", (_name, from, input) => {
    expect(transition(from, input, schedule)).toMatchObject({ kind: "ignored" });
  });

  it("keeps the fields a transition does not touch", () => {
    const from = { ...state("processing", "pending", 1), account: "ac.x", failureReason: null };
    const result = transition(from, paid, schedule);
    expect(result).toMatchObject({ kind: "moved", state: { account: "ac.x" } });
  });
});

describe("what the worker does when a payment is due", () => {
  it.each<[PaymentStatus, BillerStatus, ReturnType<typeof dueAction>]>([
    ["debiting", "not-called", "resend-debit"],
    ["processing", "not-called", "pay"],
    ["processing", "pending", "query"],
    ["processing", "unknown", "query"],
    ["refunding", "failed", "resend-refund"],
    ["successful", "successful", "none"],
    ["failed", "failed", "none"],
  ])("%s / biller %s → %s", (status, billerStatus, action) => {
    expect(dueAction({ status, billerStatus })).toBe(action);
  });
});

describe("the event kind of a payment's outcome", () => {
  it.each([
    ["bill", "completed", "payment.bill.completed"],
    ["bill", "failed", "payment.bill.failed"],
    ["pay-out", "completed", "payment.payout.completed"],
    ["pay-out", "failed", "payment.payout.failed"],
  ] as const)("%s %s → %s", (type, outcome, kind) => {
    expect(paymentEventKind(type, outcome)).toBe(kind);
  });
});
