import type { Attempt, Authorization, EventDetail, LedgerEntry, Transaction } from "./api/types";

/** One moment in an authorization's life, as its page lists them. */
export interface TimelineEntry {
  at: string;
  kind: "created" | "pre-checks" | "event" | "decision" | "ledger" | "transaction";
  title: string;
  detail?: string;
  tone?: "good" | "bad" | "warn";
  event?: EventDetail;
  ledgerEntry?: LedgerEntry;
}

const EVENT_TITLES: Record<string, string> = {
  "card.authorization.request": "Decision requested from the receiver",
  "card.authorization.update": "Update sent to the receiver",
  "card.authorization.closed": "Closed: final status sent",
  "card.transaction.created": "Transaction event sent",
};

const KIND_ORDER: TimelineEntry["kind"][] = ["created", "pre-checks", "event", "decision", "ledger", "transaction"];

function toneOf(status: Authorization["status"]): TimelineEntry["tone"] {
  if (status === "approved") return "good";
  if (status === "declined") return "bad";
  return "warn";
}

function plus(iso: string, ms: number): string {
  return new Date(new Date(iso).getTime() + ms).toISOString();
}

/** The receiver's answer to the decision request: its first 2xx attempt. */
function answerOf(request: EventDetail | undefined): Attempt | undefined {
  for (const delivery of request?.deliveries ?? [])
    for (const attempt of delivery.attempts)
      if (attempt.at && attempt.httpStatus !== null && attempt.httpStatus < 300) return attempt;
  return undefined;
}

function preChecks(auth: Authorization, request: EventDetail | undefined): TimelineEntry | undefined {
  if (auth.type !== "capture") return undefined;
  if (request)
    return {
      at: request.createdAt,
      kind: "pre-checks",
      title: "Pre-checks passed",
      detail: "Account, funding-source balance and card controls passed; the funds are held",
      tone: "good",
    };
  if (auth.decisionType === "system-response" && auth.status === "declined")
    return {
      at: auth.createdAt,
      kind: "pre-checks",
      title: "Pre-checks failed",
      detail: `Declined by the platform: ${auth.declineReason ?? auth.statusReason ?? "a check failed"}`,
      tone: "bad",
    };
  return undefined;
}

/** Who decided, and whether a timeout default or stand-in rule stood in for the receiver's answer. */
function decision(auth: Authorization, request: EventDetail | undefined): TimelineEntry | undefined {
  if (!request || auth.status === "pending") return undefined;
  const reason = auth.declineReason ? ` (${auth.declineReason})` : "";
  const answer = answerOf(request);
  const at = answer?.at ? plus(answer.at, answer.latencyMs ?? 0) : auth.updatedAt;
  const entry = { at, kind: "decision" as const, tone: toneOf(auth.status) };
  if (auth.decisionType === "stand-in")
    return {
      ...entry,
      title: `Stand-in decision: ${auth.status}${reason}`,
      detail: `No usable answer in time; the program's stand-in rule ${auth.standInRule ?? ""} decided`.trim(),
    };
  if (auth.decisionType === "system-response")
    return {
      ...entry,
      title: `${auth.statusReason === "timeout-error" ? "Timeout default applied" : "Decided by the platform"}: ${auth.status}${reason}`,
      detail: auth.statusReason ? `Reason: ${auth.statusReason}` : undefined,
    };
  return {
    ...entry,
    title: `Receiver answered: ${auth.status}${reason}`,
    detail: answer
      ? `HTTP ${answer.httpStatus} after ${answer.latencyMs ?? "?"} ms: ${answer.response ?? ""}`
      : undefined,
  };
}

/**
 * An authorization's timeline from what the public API returns about it: the authorization, its events (with their
 * delivery attempts), its ledger entries and its transactions; oldest first.
 */
export function buildTimeline(
  auth: Authorization,
  events: EventDetail[],
  ledger: LedgerEntry[],
  transactions: Transaction[],
): TimelineEntry[] {
  const request = events.find((e) => e.event === "card.authorization.request");
  const entries: (TimelineEntry | undefined)[] = [
    {
      at: auth.createdAt,
      kind: "created",
      title: `Created: ${auth.type} on card ${auth.card}`,
      detail: `Channel ${auth.channel}${auth.mcc ? `, MCC ${auth.mcc}` : ""}`,
    },
    preChecks(auth, request),
    ...events.map((event) => ({
      at: event.createdAt,
      kind: "event" as const,
      title: EVENT_TITLES[event.event] ?? event.event,
      event,
    })),
    decision(auth, request),
    ...ledger.map((entry) => ({
      at: entry.createdAt,
      kind: "ledger" as const,
      title: `Ledger: ${entry.kind} ${entry.type}`,
      detail: entry.description,
      ledgerEntry: entry,
    })),
    ...transactions.map((txn) => ({
      at: txn.createdAt,
      kind: "transaction" as const,
      title: `Transaction ${txn.id} created`,
      detail: `${txn.type}`,
    })),
  ];
  return entries
    .filter((entry): entry is TimelineEntry => entry !== undefined)
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        a.entry.at.localeCompare(b.entry.at) ||
        KIND_ORDER.indexOf(a.entry.kind) - KIND_ORDER.indexOf(b.entry.kind) ||
        a.index - b.index,
    )
    .map(({ entry }) => entry);
}
