/**
 * A bill payment's life. The payment and its debit command commit together, so it starts in `debiting`:
 *
 *   debiting ──debit ok──▶ processing ──biller ok──▶ successful
 *      │                      │  ▲ pending / no answer: ask again later
 *      └─debit failed─▶ failed ◀──refunded── refunding ◀──biller failed──┘
 *
 * Every transition commits with its outgoing messages (outbox) in one transaction, and every non-final state has a
 * next check time, so a crash at any point resumes from the table. A payout (type `pay-out`) moves the same way, the
 * bank rail in the biller's part.
 */
export const PAYMENT_STATUSES = ["debiting", "processing", "refunding", "successful", "failed"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Where the order stands at the biller while the payment is `processing` (and what it ended as). */
export const BILLER_STATUSES = ["not-called", "pending", "unknown", "successful", "failed"] as const;
export type BillerStatus = (typeof BILLER_STATUSES)[number];

export interface PaymentState {
  status: PaymentStatus;
  billerStatus: BillerStatus;
  /** Checks made in the current status (resends, biller queries); the next delay grows with it. */
  attempts: number;
  failureReason: string | null;
  /** The account the ledger debited. */
  account: string | null;
  billerReference: string | null;
  output: Record<string, string> | null;
}

export type BillerAnswer =
  | { status: "successful"; billerReference: string; output: Record<string, string> }
  | { status: "pending"; billerReference: string }
  | { status: "failed"; billerReference: string | null; reason: string }
  /** Timed out, errored, or the biller has no such order yet: the outcome is not known. */
  | { status: "unknown" };

export type PaymentInput =
  | { type: "debit-result"; succeeded: true; account: string | null }
  /** reason: the ledger's failureReason (insufficient-funds, account-not-found, account-inactive, currency-mismatch). */
  | { type: "debit-result"; succeeded: false; reason: string }
  | { type: "refund-result"; succeeded: boolean; reason: string | null }
  | { type: "biller-answer"; answer: BillerAnswer }
  /** The next check time passed without the state moving: resend the ledger command. */
  | { type: "check-due" };

/** How a payment ended, as its event names it: the kind is `payment.<bill|payout>.<outcome>` (paymentEventKind). */
export type PaymentOutcomeKind = "completed" | "failed";

export type PaymentEffect =
  { type: "send-debit" } | { type: "send-refund" } | { type: "publish-event"; outcome: PaymentOutcomeKind };

/** The event kind of a payment's outcome: bill payments and payouts (type `pay-out`) move alike, named apart. */
export const paymentEventKind = (type: "bill" | "pay-out", outcome: PaymentOutcomeKind) =>
  type === "pay-out" ? (`payment.payout.${outcome}` as const) : (`payment.bill.${outcome}` as const);

export interface RecheckSchedule {
  /** Delays before asking the biller again about a pending or unanswered order; the last one repeats. */
  billerMs: readonly number[];
  /** Delays before resending a ledger command nobody answered; the last one repeats. */
  ledgerMs: readonly number[];
}

export type Transition =
  | { kind: "moved"; state: PaymentState; effects: PaymentEffect[]; nextCheckInMs: number | null }
  | { kind: "ignored"; why: string };

export const isFinal = (status: PaymentStatus) => status === "successful" || status === "failed";

export const delayFor = (attempt: number, delays: readonly number[]) =>
  delays[Math.min(attempt, delays.length - 1)] ?? 0;

/** What the worker does for a payment whose check time has come. */
export type DueAction = "resend-debit" | "resend-refund" | "pay" | "query" | "none";

export function dueAction(state: Pick<PaymentState, "status" | "billerStatus">): DueAction {
  if (state.status === "debiting") return "resend-debit";
  if (state.status === "refunding") return "resend-refund";
  if (state.status !== "processing") return "none";
  return state.billerStatus === "not-called" ? "pay" : "query";
}

const moved = (state: PaymentState, effects: PaymentEffect[], nextCheckInMs: number | null): Transition => ({
  kind: "moved",
  state,
  effects,
  nextCheckInMs,
});
const ignored = (why: string): Transition => ({ kind: "ignored", why });

function fromDebiting(s: PaymentState, input: PaymentInput, schedule: RecheckSchedule): Transition {
  if (input.type === "debit-result" && input.succeeded) {
    return moved(
      { ...s, status: "processing", billerStatus: "not-called", attempts: 0, account: input.account },
      [],
      0,
    );
  }
  if (input.type === "debit-result") {
    return moved(
      { ...s, status: "failed", attempts: 0, failureReason: input.reason },
      [{ type: "publish-event", outcome: "failed" }],
      null,
    );
  }
  if (input.type === "check-due") {
    return moved(
      { ...s, attempts: s.attempts + 1 },
      [{ type: "send-debit" }],
      delayFor(s.attempts + 1, schedule.ledgerMs),
    );
  }
  return ignored(`${input.type} while debiting`);
}

function fromProcessing(s: PaymentState, input: PaymentInput, schedule: RecheckSchedule): Transition {
  if (input.type !== "biller-answer") return ignored(`${input.type} while processing`);
  const { answer } = input;
  switch (answer.status) {
    case "successful":
      return moved(
        {
          ...s,
          status: "successful",
          billerStatus: "successful",
          attempts: 0,
          billerReference: answer.billerReference,
          output: answer.output,
        },
        [{ type: "publish-event", outcome: "completed" }],
        null,
      );
    case "failed":
      return moved(
        {
          ...s,
          status: "refunding",
          billerStatus: "failed",
          attempts: 0,
          failureReason: answer.reason,
          billerReference: answer.billerReference ?? s.billerReference,
        },
        [{ type: "send-refund" }],
        delayFor(0, schedule.ledgerMs),
      );
    case "pending":
      return moved(
        { ...s, billerStatus: "pending", attempts: s.attempts + 1, billerReference: answer.billerReference },
        [],
        delayFor(s.attempts, schedule.billerMs),
      );
    case "unknown":
      // After a call with no answer the order may have reached the biller: from now on it is queried, not paid blindly.
      return moved(
        { ...s, billerStatus: s.billerStatus === "pending" ? "pending" : "unknown", attempts: s.attempts + 1 },
        [],
        delayFor(s.attempts, schedule.billerMs),
      );
  }
}

function fromRefunding(s: PaymentState, input: PaymentInput, schedule: RecheckSchedule): Transition {
  // A failed refund (the engine found no debit to give back) still ends the payment: no money is held for it.
  if (input.type === "refund-result") {
    return moved({ ...s, status: "failed", attempts: 0 }, [{ type: "publish-event", outcome: "failed" }], null);
  }
  if (input.type === "check-due") {
    return moved(
      { ...s, attempts: s.attempts + 1 },
      [{ type: "send-refund" }],
      delayFor(s.attempts + 1, schedule.ledgerMs),
    );
  }
  return ignored(`${input.type} while refunding`);
}

/** The one function that moves a payment; inputs that do not apply to the current status are ignored, never applied. */
export function transition(state: PaymentState, input: PaymentInput, schedule: RecheckSchedule): Transition {
  switch (state.status) {
    case "debiting":
      return fromDebiting(state, input, schedule);
    case "processing":
      return fromProcessing(state, input, schedule);
    case "refunding":
      return fromRefunding(state, input, schedule);
    case "successful":
    case "failed":
      return ignored(`${input.type} after the payment is ${state.status}`);
  }
}
