import { describe, expect, it } from "vitest";
import type { Authorization, EventDetail, LedgerEntry, Transaction } from "./api/types";
import { buildTimeline } from "./timeline";

const auth = (fields: Partial<Authorization> = {}): Authorization => ({
  id: "c.auth.1",
  card: "c.1",
  customer: "cus.1",
  account: "ac.1",
  type: "capture",
  status: "approved",
  amount: 5_000,
  fees: 0,
  currency: "NGN",
  channel: "online",
  decisionType: "direct-response",
  reserved: false,
  networkData: {},
  metadata: {},
  createdAt: "2025-01-01T10:00:00.000Z",
  updatedAt: "2025-01-01T10:00:02.000Z",
  ...fields,
});

const event = (
  kind: string,
  createdAt: string,
  attempts: EventDetail["deliveries"][0]["attempts"] = [],
): EventDetail => ({
  id: `evt.${kind}`,
  event: kind,
  resource: "c.auth.1",
  status: "delivered",
  data: {},
  createdAt,
  payload: {},
  deliveries: [{ webhook: "wh.1", status: "delivered", nextAttemptAt: null, attempts }],
});

const answered = (at: string, latencyMs: number, httpStatus = 200) => ({
  attempt: 1,
  trigger: "initial" as const,
  at,
  url: "http://receiver/hook",
  httpStatus,
  latencyMs,
  response: '{"action":"approve"}',
  error: null,
});

const ledger: LedgerEntry = {
  id: "le.1",
  account: "ac.1",
  type: "debit",
  kind: "capture",
  amount: -5_000,
  currency: "NGN",
  reference: "c.auth.1",
  description: "card c.1 capture",
  createdAt: "2025-01-01T10:00:01.500Z",
};

const transaction: Transaction = {
  id: "c.txn.1",
  authorization: "c.auth.1",
  card: "c.1",
  type: "capture",
  amount: -5_000,
  fees: 0,
  currency: "NGN",
  createdAt: "2025-01-01T10:00:01.600Z",
};

describe("an authorization's timeline", () => {
  it("orders created, pre-checks, the decision request, the receiver's answer, ledger, closed and transaction", () => {
    const events = [
      event("card.authorization.request", "2025-01-01T10:00:00.100Z", [answered("2025-01-01T10:00:00.200Z", 300)]),
      event("card.authorization.closed", "2025-01-01T10:00:01.700Z"),
      event("card.transaction.created", "2025-01-01T10:00:01.800Z"),
    ];
    const timeline = buildTimeline(auth(), events, [ledger], [transaction]);
    expect(timeline.map((e) => e.title)).toEqual([
      "Created: capture on card c.1",
      "Pre-checks passed",
      "Decision requested from the receiver",
      "Receiver answered: approved",
      "Ledger: capture debit",
      "Transaction c.txn.1 created",
      "Closed: final status sent",
      "Transaction event sent",
    ]);
    expect(timeline[3]!.at).toBe("2025-01-01T10:00:00.500Z"); // the answer's attempt time plus its latency
    expect(timeline[3]!.detail).toBe('HTTP 200 after 300 ms: {"action":"approve"}');
    expect(timeline[2]!.event?.deliveries[0]!.attempts[0]!.response).toContain("approve");
  });

  it("says when the timeout default decided, with the reason", () => {
    const events = [
      event("card.authorization.request", "2025-01-01T10:00:00.100Z", [answered("2025-01-01T10:00:00.200Z", 4_000, 0)]),
    ];
    events[0]!.deliveries[0]!.attempts[0]!.httpStatus = null;
    const timeline = buildTimeline(
      auth({ decisionType: "system-response", statusReason: "timeout-error", status: "declined" }),
      events,
      [],
      [],
    );
    const decision = timeline.find((e) => e.kind === "decision")!;
    expect(decision.title).toBe("Timeout default applied: declined");
    expect(decision.tone).toBe("bad");
    expect(decision.at).toBe("2025-01-01T10:00:02.000Z"); // no answer: the authorization's last change
  });

  it("names the stand-in rule that decided", () => {
    const events = [event("card.authorization.request", "2025-01-01T10:00:00.100Z")];
    const timeline = buildTimeline(auth({ decisionType: "stand-in", standInRule: "small-amounts" }), events, [], []);
    expect(timeline.find((e) => e.kind === "decision")!.detail).toContain("small-amounts");
  });

  it("shows failed pre-checks and no decision request when the platform declined first", () => {
    const timeline = buildTimeline(
      auth({ decisionType: "system-response", status: "declined", declineReason: "insufficient-funds" }),
      [event("card.authorization.closed", "2025-01-01T10:00:00.300Z")],
      [],
      [],
    );
    expect(timeline.map((e) => e.title)).toEqual([
      "Created: capture on card c.1",
      "Pre-checks failed",
      "Closed: final status sent",
    ]);
    expect(timeline[1]!.detail).toContain("insufficient-funds");
  });

  it("has no decision yet while the authorization is pending", () => {
    const events = [event("card.authorization.request", "2025-01-01T10:00:00.100Z")];
    const timeline = buildTimeline(auth({ status: "pending" }), events, [], []);
    expect(timeline.some((e) => e.kind === "decision")).toBe(false);
  });
});
