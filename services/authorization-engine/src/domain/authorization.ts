/**
 * The authorization state machine of interface.md ("States and transitions"), as pure functions: each named
 * transition takes an authorization (and its input) and returns the next authorization plus the effects the engine
 * must carry out in the same database transaction (ledger movements, events, deadlines). No I/O here.
 */
export type AuthorizationStatus = "pending" | "approved" | "declined" | "reversed";
export type DecisionType = "direct-response" | "system-response";
export type TimeoutDefault = "approve" | "decline";
export type AuthorizationEvent = "card.authorization.request" | "card.authorization.closed" | "card.authorization.update";

/** How long the receiver has to answer a decision event (interface Limits). */
export const DECISION_WINDOW_MS = 4_000;

export interface Authorization {
  id: string;
  type: "check" | "capture";
  status: AuthorizationStatus;
  amount: number;
  fees: number;
  decisionType: DecisionType | null;
  statusReason: string | null;
  declineReason: string | null;
  /** Funds are held for it (amount + fees). */
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
}

export type Effect =
  | { kind: "hold"; amount: number }
  | { kind: "release-hold"; amount: number }
  | { kind: "capture-hold"; amount: number }
  | { kind: "debit"; amount: number }
  | { kind: "refund"; amount: number }
  | { kind: "credit-settlement"; amount: number }
  | { kind: "create-transaction"; amount: number; fees: number }
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

/** What came back for a decision event: a parsed answer, or nothing usable (timeout, error, bad body). */
export type Answer =
  | { action: "approve"; code?: string; cardBalance?: number; cardHolderName?: string; metadata?: Record<string, unknown> }
  | { action: "decline"; code?: string; metadata?: Record<string, unknown> }
  | { action: "unusable"; reason: string };

const awaitingFirstAnswer = (a: Authorization) => a.status === "pending" && a.decisionDueAt !== null && a.pendingUpdate === null;
const awaitingUpdateAnswer = (a: Authorization) => a.status === "pending" && a.pendingUpdate !== null;
const isNew = (a: Authorization) => a.status === "pending" && a.decisionDueAt === null && !a.reserved && a.decisionType === null;

function expectState(ok: boolean, transition: string, a: Authorization): void {
  if (!ok) throw new IllegalTransition(transition, a.status);
}

/** A pre-check failed (account, balance, spending control): declined by the service itself. */
export function declineByService(a: Authorization, reason: string): Step {
  expectState(isNew(a), "declineByService", a);
  return {
    authorization: { ...a, status: "declined", decisionType: "system-response", declineReason: reason, statusReason: reason },
    effects: [{ kind: "emit", event: "card.authorization.closed" }],
  };
}

/** All pre-checks passed: hold amount + fees and ask the receiver (capture), or just ask (check). */
export function askReceiver(a: Authorization, now: number): Step {
  expectState(isNew(a), "askReceiver", a);
  const dueAt = now + DECISION_WINDOW_MS;
  const total = a.amount + a.fees;
  const hold: Effect[] = a.type === "capture" ? [{ kind: "hold", amount: total }] : [];
  return {
    authorization: { ...a, reserved: a.type === "capture", held: a.type === "capture" ? total : 0, decisionDueAt: dueAt },
    effects: [...hold, { kind: "emit", event: "card.authorization.request" }, { kind: "await-decision", dueAt }],
  };
}

function approveFirst(a: Authorization, answer: Extract<Answer, { action: "approve" }>, decisionType: DecisionType, reason: string | null): Step {
  const base = { ...a, status: "approved" as const, decisionType, statusReason: reason, decisionDueAt: null, metadata: { ...a.metadata, ...answer.metadata } };
  if (a.type === "check") {
    return { authorization: { ...base, cardBalance: answer.cardBalance ?? null, cardHolderName: answer.cardHolderName ?? null }, effects: [] };
  }
  return {
    authorization: { ...base, reserved: false, held: 0, debited: a.held },
    effects: [
      { kind: "capture-hold", amount: a.held },
      { kind: "emit", event: "card.authorization.closed" },
      { kind: "create-transaction", amount: 0 - a.amount, fees: 0 - a.fees },
    ],
  };
}

function declineFirst(a: Authorization, code: string, decisionType: DecisionType, reason: string | null, metadata?: Record<string, unknown>): Step {
  const released: Effect[] = a.held > 0 ? [{ kind: "release-hold", amount: a.held }] : [];
  const closed: Effect[] = a.type === "capture" ? [{ kind: "emit", event: "card.authorization.closed" }] : [];
  return {
    authorization: { ...a, status: "declined", decisionType, declineReason: code, statusReason: reason, reserved: false, held: 0, decisionDueAt: null, metadata: { ...a.metadata, ...metadata } },
    effects: [...released, ...closed],
  };
}

/** Rule 1: an approved check must carry an integer cardBalance and a cardHolderName. */
const validCheckApproval = (answer: Extract<Answer, { action: "approve" }>) =>
  Number.isInteger(answer.cardBalance) && typeof answer.cardHolderName === "string" && answer.cardHolderName.length > 0;

/** The receiver answered the request (or an amount update). Anything unusable applies the timeout default. */
export function applyAnswer(a: Authorization, answer: Answer, now: number): Step {
  expectState(awaitingFirstAnswer(a) || awaitingUpdateAnswer(a), "applyAnswer", a);
  if (answer.action === "unusable") return applyTimeoutDefault(a, now, answer.reason);
  if (a.pendingUpdate) return answerUpdate(a, answer, "direct-response", null);
  if (answer.action === "decline") return declineFirst(a, answer.code ?? "declined", "direct-response", null, answer.metadata);
  if (a.type === "check" && !validCheckApproval(answer)) return declineFirst(a, "invalid-response", "direct-response", "invalid-response");
  return approveFirst(a, answer, "direct-response", null);
}

/** No usable answer in time: the timeout default (program's, else webhook's, else decline) decides. */
export function applyTimeoutDefault(a: Authorization, _now: number, reason = "timeout-error"): Step {
  expectState(awaitingFirstAnswer(a) || awaitingUpdateAnswer(a), "applyTimeoutDefault", a);
  const statusReason = reason;
  const answer: Answer = a.timeoutDefault === "approve" ? { action: "approve" } : { action: "decline", code: "timeout" };
  if (a.pendingUpdate) return answerUpdate(a, answer, "system-response", statusReason);
  if (answer.action === "decline") return declineFirst(a, "timeout", "system-response", statusReason);
  return approveFirst(a, answer, "system-response", statusReason);
}

/** The network changes the amount of an approved authorization: ask again, 4 seconds to answer. */
export function requestAmountUpdate(a: Authorization, update: { amount: number; fees: number }, now: number): Step {
  expectState(a.status === "approved" && a.type === "capture", "requestAmountUpdate", a);
  const dueAt = now + DECISION_WINDOW_MS;
  return {
    authorization: { ...a, status: "pending", pendingUpdate: update, decisionDueAt: dueAt },
    effects: [{ kind: "emit", event: "card.authorization.update" }, { kind: "await-decision", dueAt }],
  };
}

/**
 * The answer to an amount update. Approve: the debit moves to the new amount (the difference is debited or
 * refunded) and a transaction records the difference. Decline: the purchase does not go through — what was debited
 * is refunded, as the reference receiver releases its lien.
 */
function answerUpdate(a: Authorization, answer: Exclude<Answer, { action: "unusable" }>, decisionType: DecisionType, reason: string | null): Step {
  const update = a.pendingUpdate!;
  const base = { ...a, pendingUpdate: null, decisionDueAt: null, decisionType, statusReason: reason, metadata: { ...a.metadata, ...answer.metadata } };
  if (answer.action === "decline") {
    return {
      authorization: { ...base, status: "declined", declineReason: answer.code ?? "declined", debited: 0 },
      effects: [{ kind: "refund", amount: a.debited }, { kind: "emit", event: "card.authorization.closed" }],
    };
  }
  const total = update.amount + update.fees;
  const delta = total - a.debited;
  const ledger: Effect[] = delta > 0 ? [{ kind: "debit", amount: delta }] : delta < 0 ? [{ kind: "refund", amount: -delta }] : [];
  return {
    authorization: { ...base, status: "approved", amount: update.amount, fees: update.fees, debited: total },
    effects: [
      ...ledger,
      { kind: "emit", event: "card.authorization.closed" },
      { kind: "create-transaction", amount: a.amount - update.amount, fees: a.fees - update.fees },
    ],
  };
}

/** The network reverses an approved authorization: the debited amount goes back to the settlement balance. */
export function reverse(a: Authorization): Step {
  expectState(a.status === "approved" && a.type === "capture", "reverse", a);
  return {
    authorization: { ...a, status: "reversed", debited: 0 },
    effects: [{ kind: "credit-settlement", amount: a.debited }, { kind: "emit", event: "card.authorization.update" }],
  };
}
