/**
 * The dispute lifecycle, as pure functions (like domain/authorization.ts): each named transition takes a dispute and
 * returns the next one plus the effects the engine carries out in the same database transaction (ledger movements,
 * events). No I/O here.
 *
 *   open ──win──▶ won     the network decided for the cardholder: the credit is final
 *   open ──lose─▶ lost    the network decided for the merchant: a provisional credit is taken back
 *   open ──close▶ closed  the business withdrew the dispute: a provisional credit is taken back
 *
 * Evidence (text, documents, user) changes only while the dispute is open; won, lost and closed are final.
 */
export type DisputeStatus = "open" | "won" | "lost" | "closed";
export type DisputeEvent = "dispute.created" | "dispute.updated" | "dispute.won" | "dispute.lost" | "dispute.closed";

export interface Dispute {
  status: DisputeStatus;
  /** Minor units disputed. */
  amount: number;
  /** Minor units credited to the cardholder's account when the dispute was opened (0: the program gives none). */
  provisionalCredit: number;
  /** Of a provisional credit taken back, what the account could not cover (its available balance was short). */
  owed: number;
}

export type DisputeEffect =
  /** The disputes account → the cardholder's funding account, at once (the program gives provisional credit). */
  | { kind: "credit-provisionally"; amount: number }
  /** The cardholder's funding account → the disputes account: a provisional credit taken back (what is available). */
  | { kind: "reverse-provisional-credit"; amount: number }
  /** Network clearing → the disputes account: the chargeback pays back a provisional credit, which becomes final. */
  | { kind: "recover-provisional-credit"; amount: number }
  /** Network clearing → the cardholder's funding account: a won dispute without provisional credit is credited now. */
  | { kind: "credit-chargeback"; amount: number }
  | { kind: "emit"; event: DisputeEvent };

export interface DisputeStep {
  dispute: Dispute;
  effects: DisputeEffect[];
}

export class IllegalDisputeTransition extends Error {
  constructor(
    readonly transition: string,
    readonly from: DisputeStatus,
  ) {
    super(`${transition} is not allowed on a dispute that is ${from}`);
    this.name = "IllegalDisputeTransition";
  }
}

const DAY_MS = 86_400_000;

function expectOpen(d: Dispute, transition: string): void {
  if (d.status !== "open") throw new IllegalDisputeTransition(transition, d.status);
}

const emit = (event: DisputeEvent): DisputeEffect => ({ kind: "emit", event });

/** A new dispute: open, with the amount credited provisionally when the program says so. */
export function openDispute(amount: number, provisionalCredit: boolean): DisputeStep {
  const credit = provisionalCredit ? amount : 0;
  return {
    dispute: { status: "open", amount, provisionalCredit: credit, owed: 0 },
    effects: [
      ...(credit > 0 ? [{ kind: "credit-provisionally", amount: credit } as const] : []),
      emit("dispute.created"),
    ],
  };
}

/** New evidence (text, documents, user): only while open. */
export function updateEvidence(d: Dispute): DisputeStep {
  expectOpen(d, "updateEvidence");
  return { dispute: d, effects: [emit("dispute.updated")] };
}

/**
 * A provisional credit is taken back from the account: as much as is available there (never below zero, and never
 * funds held for authorizations); the rest is recorded as owed.
 */
function takeBack(d: Dispute, status: "lost" | "closed", available: number): DisputeStep {
  const taken = Math.min(d.provisionalCredit, Math.max(0, available));
  const reversal: DisputeEffect[] = taken > 0 ? [{ kind: "reverse-provisional-credit", amount: taken }] : [];
  return {
    dispute: { ...d, status, owed: d.provisionalCredit - taken },
    effects: [...reversal, emit(status === "lost" ? "dispute.lost" : "dispute.closed")],
  };
}

/** The business withdraws the dispute. `available`: the funding account's available balance now. */
export function closeDispute(d: Dispute, available: number): DisputeStep {
  expectOpen(d, "closeDispute");
  return takeBack(d, "closed", available);
}

/** The network decides against the cardholder. `available`: the funding account's available balance now. */
export function loseDispute(d: Dispute, available: number): DisputeStep {
  expectOpen(d, "loseDispute");
  return takeBack(d, "lost", available);
}

/** The network decides for the cardholder: the chargeback pays a provisional credit back, or credits the amount now. */
export function winDispute(d: Dispute): DisputeStep {
  expectOpen(d, "winDispute");
  const money: DisputeEffect =
    d.provisionalCredit > 0
      ? { kind: "recover-provisional-credit", amount: d.provisionalCredit }
      : { kind: "credit-chargeback", amount: d.amount };
  return { dispute: { ...d, status: "won" }, effects: [money, emit("dispute.won")] };
}

/** What a card authorization is, as far as disputing it goes. */
export interface DisputedAuthorization {
  type: "check" | "capture";
  status: "pending" | "approved" | "declined" | "reversed";
  /** The merchant amount (fees are the program's, not the network's, and are not disputed). */
  amount: number;
  /** What is still debited for it (0 once reversed, or when it was declined before any capture). */
  debited: number;
  createdAt: number;
}

/** Why a dispute of `amount` (undefined: all that is left) cannot be opened, or its amount when it can. */
export type DisputeAdmission =
  | { ok: true; amount: number }
  | { ok: false; problem: "not-captured" | "nothing-left" | "window-passed" | "amount-too-large"; message: string };

/**
 * The guard rails of a new dispute, in order: a capture that was decided and still has money debited; inside the
 * program's window after the authorization; an amount no larger than what was captured and is not back with the
 * cardholder already (a reversal leaves nothing debited; `alreadyWon` is what earlier disputes won).
 */
export function admitDispute(
  a: DisputedAuthorization,
  request: { amount?: number; now: number; windowDays: number; alreadyWon: number },
): DisputeAdmission {
  const decided = a.status === "approved" || a.status === "declined";
  if (a.type !== "capture" || !decided || a.debited <= 0)
    return {
      ok: false,
      problem: "not-captured",
      message: `only a decided capture with money debited can be disputed; this ${a.type} is ${a.status}`,
    };
  const left = Math.min(a.amount, a.debited) - request.alreadyWon;
  if (left <= 0)
    return { ok: false, problem: "nothing-left", message: "its whole amount was already won in an earlier dispute" };
  if (request.now > a.createdAt + request.windowDays * DAY_MS)
    return {
      ok: false,
      problem: "window-passed",
      message: `a transaction can be disputed for ${request.windowDays} days after it was authorized`,
    };
  const amount = request.amount ?? left;
  if (amount > left)
    return {
      ok: false,
      problem: "amount-too-large",
      message: `amount ${amount} is more than the ${left} that can still be disputed`,
    };
  return { ok: true, amount };
}
