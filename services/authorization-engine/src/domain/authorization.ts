/**
 * The authorization state machine of interface.md ("States and transitions"), as pure functions: each named
 * transition takes an authorization (and its input) and returns the next authorization plus the effects the engine
 * must carry out in the same database transaction (ledger movements, events, deadlines). No I/O here.
 */
import type { StandInVerdict } from "./stand-in";

export type AuthorizationStatus = "pending" | "approved" | "declined" | "reversed";
/** Who decided: the receiver, the platform (a failed pre-check, the flat timeout default), or the stand-in rules. */
export type DecisionType = "direct-response" | "system-response" | "stand-in";
export type TimeoutDefault = "approve" | "decline";
export type AuthorizationEvent =
  "card.authorization.request" | "card.authorization.closed" | "card.authorization.update";
export type TransactionType = "capture" | "adjustment" | "reversal";

/** How long the receiver has to answer a decision event (interface Limits). */
export const DECISION_WINDOW_MS = 4_000;

/** Less of the window than this left when the request gets to the engine: too late to ask the receiver at all. */
export const MIN_ASK_WINDOW_MS = 250;

export interface Authorization {
  id: string;
  type: "check" | "capture";
  status: AuthorizationStatus;
  /** The amount approved (or, while undecided, asked). */
  amount: number;
  /** What the network asked for; above `amount` only after a partial approval. */
  requestedAmount: number;
  /** The network allows approving less than it asked (prepaid cards): an approve may name a smaller `amount`. */
  partialApprovalAllowed: boolean;
  fees: number;
  decisionType: DecisionType | null;
  statusReason: string | null;
  declineReason: string | null;
  /** Funds are held for it. */
  reserved: boolean;
  /** Minor units held, and minor units debited, for this authorization. */
  held: number;
  debited: number;
  /** The amount change the receiver is being asked about. */
  pendingUpdate: { amount: number; fees: number } | null;
  /** When the receiver's answer is due (epoch ms); null when nothing is being asked. */
  decisionDueAt: number | null;
  timeoutDefault: TimeoutDefault;
  cardBalance: number | null;
  cardHolderName: string | null;
  metadata: Record<string, unknown>;
  /** The stand-in rule that decided the capture (decisionType stand-in); null when none did. */
  standInRule: string | null;
}

export type Effect =
  /** Reserve funds on the funding account. */
  | { kind: "hold"; amount: number }
  /** Give reserved funds back to available. */
  | { kind: "release-hold"; amount: number }
  /** Turn reserved funds into a debit: funding account → network clearing. */
  | { kind: "capture-hold"; amount: number }
  /** Network clearing → funding account (an approved smaller amount). */
  | { kind: "refund"; amount: number }
  /** Network clearing → the program's settlement account (a reversal, interface Rule 4). */
  | { kind: "credit-settlement"; amount: number }
  /** A card transaction; amount and fees are negative for a debit, positive for money back. */
  | { kind: "create-transaction"; type: TransactionType; amount: number; fees: number }
  | { kind: "emit"; event: AuthorizationEvent }
  | { kind: "await-decision"; dueAt: number };

export interface Step {
  authorization: Authorization;
  effects: Effect[];
}

export class IllegalTransition extends Error {
  constructor(
    readonly transition: string,
    readonly from: AuthorizationStatus,
  ) {
    super(`${transition} is not allowed on an authorization that is ${from}`);
    this.name = "IllegalTransition";
  }
}

type Approve = {
  action: "approve";
  /** A partial approval: less than the amount asked (only where the network allowed it). */
  amount?: number;
  code?: string;
  cardBalance?: number;
  cardHolderName?: string;
  metadata?: Record<string, unknown>;
};
type Decline = { action: "decline"; code?: string; metadata?: Record<string, unknown> };
/** What came back for a decision event: a parsed answer, or nothing usable (timeout, error, bad body). */
export type Answer = Approve | Decline | { action: "unusable"; reason: string };

/** What the platform itself knows of a card, used when a check is approved by the timeout default. */
export interface CheckFallback {
  cardBalance: number;
  cardHolderName: string;
}

export const isAwaitingAnswer = (a: Authorization) => a.status === "pending" && a.decisionDueAt !== null;
const isNew = (a: Authorization) =>
  a.status === "pending" && a.decisionDueAt === null && !a.reserved && a.decisionType === null;
const isApprovedCapture = (a: Authorization) => a.status === "approved" && a.type === "capture";

function expectState(ok: boolean, transition: string, a: Authorization): void {
  if (!ok) throw new IllegalTransition(transition, a.status);
}

const emit = (event: AuthorizationEvent): Effect => ({ kind: "emit", event });
const mergeMetadata = (a: Authorization, answer: { metadata?: Record<string, unknown> }) => ({
  ...a.metadata,
  ...answer.metadata,
});

/**
 * A pre-check failed (account, balance, spending control): declined by the service itself. `detail` says which
 * check failed (the statusReason); `reason` is the declineReason.
 */
export function declineByService(a: Authorization, reason: string, detail: string = reason): Step {
  expectState(isNew(a), "declineByService", a);
  return {
    authorization: {
      ...a,
      status: "declined",
      decisionType: "system-response",
      declineReason: reason,
      statusReason: detail,
    },
    effects: [emit("card.authorization.closed")],
  };
}

/** All pre-checks passed: hold amount + fees and ask the receiver (capture), or just ask (check). */
export function askReceiver(a: Authorization, now: number): Step {
  expectState(isNew(a), "askReceiver", a);
  const dueAt = now + DECISION_WINDOW_MS;
  const total = a.amount + a.fees;
  const holds = a.type === "capture" && total > 0;
  return {
    authorization: { ...a, reserved: holds, held: holds ? total : 0, decisionDueAt: dueAt },
    effects: [
      ...(holds ? [{ kind: "hold", amount: total } as const] : []),
      emit("card.authorization.request"),
      { kind: "await-decision", dueAt },
    ],
  };
}

/**
 * All pre-checks passed, but the request reached the engine too late to ask the receiver in its window (the platform
 * is behind): the timeout default (or the stand-in verdict) decides at once, with statusReason `platform-overloaded`.
 * The receiver is not asked; a capture's outcome reaches it as usual (card.authorization.closed). The funds are held
 * and then captured or released, as if the receiver had not answered.
 */
export function decideWithoutAsking(
  a: Authorization,
  arrivedAt: number,
  fallback?: CheckFallback,
  standIn?: StandInVerdict,
): Step {
  const asked = askReceiver(a, arrivedAt);
  const held = asked.effects.filter((e) => e.kind === "hold");
  const decided = applyTimeoutDefault(asked.authorization, arrivedAt, "platform-overloaded", fallback, standIn);
  return { authorization: decided.authorization, effects: [...held, ...decided.effects] };
}

/** Whether a request that reached the platform at `arrivedAt` can still be put to the receiver at `now`. */
export const tooLateToAsk = (arrivedAt: number, now: number) =>
  arrivedAt + DECISION_WINDOW_MS - now < MIN_ASK_WINDOW_MS;

/** The hold becomes the debit; a partial approval (answer.amount below the amount asked) releases what it leaves. */
function approveCapture(a: Authorization, answer: Approve, decisionType: DecisionType, reason: string | null): Step {
  const amount = answer.amount ?? a.amount;
  const leftOver = a.amount - amount;
  const captured = a.held - leftOver;
  return {
    authorization: {
      ...a,
      status: "approved",
      amount,
      decisionType,
      statusReason: reason,
      decisionDueAt: null,
      metadata: mergeMetadata(a, answer),
      reserved: false,
      held: 0,
      debited: captured,
    },
    effects: [
      ...(captured > 0 ? [{ kind: "capture-hold", amount: captured } as const] : []),
      ...(leftOver > 0 ? [{ kind: "release-hold", amount: leftOver } as const] : []),
      emit("card.authorization.closed"),
      { kind: "create-transaction", type: "capture", amount: -amount, fees: -a.fees },
    ],
  };
}

function approveCheck(
  a: Authorization,
  answer: Approve & CheckFallback,
  decisionType: DecisionType,
  reason: string | null,
): Step {
  return {
    authorization: {
      ...a,
      status: "approved",
      decisionType,
      statusReason: reason,
      decisionDueAt: null,
      metadata: mergeMetadata(a, answer),
      cardBalance: answer.cardBalance,
      cardHolderName: answer.cardHolderName,
    },
    effects: [],
  };
}

function declineFirst(
  a: Authorization,
  code: string | null,
  decisionType: DecisionType,
  reason: string | null,
  answer: Decline | Approve,
): Step {
  const released: Effect[] = a.held > 0 ? [{ kind: "release-hold", amount: a.held }] : [];
  const closed: Effect[] = a.type === "capture" ? [emit("card.authorization.closed")] : [];
  return {
    authorization: {
      ...a,
      status: "declined",
      decisionType,
      declineReason: code,
      statusReason: reason,
      reserved: false,
      held: 0,
      decisionDueAt: null,
      metadata: mergeMetadata(a, answer),
    },
    effects: [...released, ...closed],
  };
}

/** Rule 1: an approved check must carry an integer cardBalance and a cardHolderName. */
const validCheckApproval = (answer: Approve): answer is Approve & CheckFallback =>
  Number.isSafeInteger(answer.cardBalance) &&
  typeof answer.cardHolderName === "string" &&
  answer.cardHolderName.length > 0;

/** The amount a decision is about: an amount change's new amount, else the amount asked. */
const askedAmount = (a: Authorization) => a.pendingUpdate?.amount ?? a.amount;

/**
 * An approve naming an `amount` is usable for at most the amount asked, and for less only where the network allowed a
 * partial approval (a capture's first request that said so; never a check or an amount change). Otherwise it is
 * unusable (invalid-response), as a body that is not an answer is.
 */
export function screenAnswer(a: Authorization, answer: Answer): Answer {
  if (answer.action !== "approve" || answer.amount === undefined) return answer;
  const asked = askedAmount(a);
  const partialAllowed = a.partialApprovalAllowed && a.type === "capture" && a.pendingUpdate === null;
  const partial = Number.isSafeInteger(answer.amount) && answer.amount >= 1 && answer.amount < asked;
  const usable = answer.amount === asked || (partial && partialAllowed);
  return usable ? answer : { action: "unusable", reason: "invalid-response" };
}

/**
 * The receiver answered the request (or an amount update). Anything unusable (see screenAnswer) applies the timeout
 * default, or the stand-in verdict when the program has stand-in rules.
 */
export function applyAnswer(
  a: Authorization,
  given: Answer,
  now: number,
  fallback?: CheckFallback,
  standIn?: StandInVerdict,
): Step {
  expectState(isAwaitingAnswer(a), "applyAnswer", a);
  const answer = screenAnswer(a, given);
  if (answer.action === "unusable") return applyTimeoutDefault(a, now, answer.reason, fallback, standIn);
  if (a.pendingUpdate) return answerUpdate(a, answer, "direct-response", null);
  if (answer.action === "decline") return declineFirst(a, answer.code ?? null, "direct-response", null, answer);
  if (a.type === "capture") return approveCapture(a, answer, "direct-response", null);
  if (!validCheckApproval(answer)) return declineFirst(a, null, "direct-response", "invalid-response", answer);
  return approveCheck(a, answer, "direct-response", null);
}

/** A capture's first decision, not an amount change's or a check's: what stand-in rules decide. */
const decidesFirstCapture = (a: Authorization) =>
  isAwaitingAnswer(a) && a.type === "capture" && a.pendingUpdate === null;

/**
 * No usable answer in time: the timeout default (program's, else webhook's, else decline) decides, as a
 * system-response with statusReason `reason` and no declineReason. A check approved this way reports the platform's
 * own balance and name. With a stand-in verdict (the program has stand-in rules) a capture's first decision is the
 * verdict's instead (applyStandIn); checks and amount changes keep the flat default.
 */
export function applyTimeoutDefault(
  a: Authorization,
  _now: number,
  reason = "timeout-error",
  fallback?: CheckFallback,
  standIn?: StandInVerdict,
): Step {
  expectState(isAwaitingAnswer(a), "applyTimeoutDefault", a);
  if (standIn && decidesFirstCapture(a)) return applyStandIn(a, standIn, reason);
  if (a.timeoutDefault === "decline") {
    const decline: Decline = { action: "decline" };
    return a.pendingUpdate
      ? answerUpdate(a, decline, "system-response", reason)
      : declineFirst(a, null, "system-response", reason, decline);
  }
  const approve: Approve = { action: "approve" };
  if (a.pendingUpdate) return answerUpdate(a, approve, "system-response", reason);
  if (a.type === "capture") return approveCapture(a, approve, "system-response", reason);
  if (!fallback) return declineFirst(a, null, "system-response", reason, approve);
  return approveCheck(a, { ...approve, ...fallback }, "system-response", reason);
}

/**
 * The stand-in rules decided a capture that got no usable answer (domain/stand-in.ts): approve (the hold becomes the
 * debit) or decline (the hold is released), as decisionType `stand-in` with the rule that decided, statusReason
 * `reason` (why no usable answer came) and no declineReason. The closed event tells the receiver.
 */
export function applyStandIn(a: Authorization, verdict: StandInVerdict, reason: string): Step {
  expectState(decidesFirstCapture(a), "applyStandIn", a);
  const step =
    verdict.action === "approve"
      ? approveCapture(a, { action: "approve" }, "stand-in", reason)
      : declineFirst(a, null, "stand-in", reason, { action: "decline" });
  return { ...step, authorization: { ...step.authorization, standInRule: verdict.rule } };
}

/**
 * The network changes the amount of an approved capture. A larger total is held first; when the funding source
 * cannot cover the difference the service declines the change itself. Otherwise the receiver is asked (4 s).
 */
export function requestAmountUpdate(
  a: Authorization,
  update: { amount: number; fees: number },
  now: number,
  available: number,
): Step {
  expectState(isApprovedCapture(a), "requestAmountUpdate", a);
  const increase = update.amount + update.fees - a.debited;
  if (increase > available) {
    return {
      authorization: {
        ...a,
        status: "declined",
        decisionType: "system-response",
        declineReason: "insufficient-funds",
        statusReason: "insufficient-funds",
      },
      effects: [emit("card.authorization.closed")],
    };
  }
  const dueAt = now + DECISION_WINDOW_MS;
  const holds = increase > 0;
  return {
    authorization: {
      ...a,
      status: "pending",
      pendingUpdate: update,
      decisionDueAt: dueAt,
      reserved: holds,
      held: holds ? increase : 0,
    },
    effects: [
      ...(holds ? [{ kind: "hold", amount: increase } as const] : []),
      emit("card.authorization.update"),
      { kind: "await-decision", dueAt },
    ],
  };
}

/** statusReason of a lowered amount that was declined (or not answered) and applied all the same. */
export const DECREASE_NOT_REFUSABLE = "decrease-not-refusable";

/**
 * The answer to an amount update. Approve: the authorization moves to the new amount — the held increase is
 * captured, or the decrease refunded — and a transaction records the difference. Decline of an increase: the change
 * does not go through: the held increase is released and the authorization is `declined` with the code, while what
 * was captured at the original amount stays debited (as the reference receiver keeps its debit and releases only its
 * lock). A decrease is the network's to make, not the issuer's to refuse (a partial reversal: the merchant gets the
 * lower amount whatever the issuer answers; the reference receiver never declines one): a decline, or a timeout
 * default of decline, still moves the authorization to the lower amount, as a system-response with statusReason
 * `decrease-not-refusable`, and the closed event tells the receiver what stands.
 */
function answerUpdate(
  a: Authorization,
  given: Approve | Decline,
  givenType: DecisionType,
  givenReason: string | null,
): Step {
  const update = a.pendingUpdate!;
  const refusedDecrease = given.action === "decline" && update.amount + update.fees < a.debited;
  const answer: Approve | Decline = refusedDecrease ? { action: "approve", metadata: given.metadata } : given;
  const decisionType = refusedDecrease ? "system-response" : givenType;
  const reason = refusedDecrease ? DECREASE_NOT_REFUSABLE : givenReason;
  const base = {
    ...a,
    pendingUpdate: null,
    decisionDueAt: null,
    decisionType,
    statusReason: reason,
    metadata: mergeMetadata(a, answer),
    reserved: false,
    held: 0,
  };
  if (answer.action === "decline") {
    const released: Effect[] = a.held > 0 ? [{ kind: "release-hold", amount: a.held }] : [];
    return {
      authorization: { ...base, status: "declined", declineReason: answer.code ?? null },
      effects: [...released, emit("card.authorization.closed")],
    };
  }
  const total = update.amount + update.fees;
  const change = total - a.debited;
  const ledger: Effect[] =
    change > 0 ? [{ kind: "capture-hold", amount: change }] : change < 0 ? [{ kind: "refund", amount: -change }] : [];
  const transaction: Effect[] =
    change === 0
      ? []
      : [
          {
            kind: "create-transaction",
            type: "adjustment",
            amount: a.amount - update.amount,
            fees: a.fees - update.fees,
          },
        ];
  return {
    authorization: {
      ...base,
      status: "approved",
      amount: update.amount,
      requestedAmount: update.amount,
      fees: update.fees,
      debited: total,
    },
    effects: [...ledger, emit("card.authorization.closed"), ...transaction],
  };
}

/** The network reverses an approved capture: what was debited goes to the settlement balance (Rule 4). */
export function reverse(a: Authorization): Step {
  expectState(isApprovedCapture(a), "reverse", a);
  const credited: Effect[] = a.debited > 0 ? [{ kind: "credit-settlement", amount: a.debited }] : [];
  return {
    authorization: { ...a, status: "reversed", debited: 0 },
    effects: [
      ...credited,
      emit("card.authorization.update"),
      { kind: "create-transaction", type: "reversal", amount: a.amount, fees: a.fees },
    ],
  };
}
