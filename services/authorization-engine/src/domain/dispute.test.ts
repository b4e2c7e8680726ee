import { describe, expect, it } from "vitest";
import {
  admitDispute,
  closeDispute,
  IllegalDisputeTransition,
  loseDispute,
  openDispute,
  updateEvidence,
  winDispute,
  type DisputedAuthorization,
  type Dispute,
  type DisputeStatus,
  type DisputeStep,
} from "./dispute";

const DAY = 86_400_000;
const NOW = 1_700_000_000_000;

const dispute = (o: Partial<Dispute> = {}): Dispute => ({
  status: "open",
  amount: 40_000,
  provisionalCredit: 0,
  owed: 0,
  ...o,
});
const kinds = (step: DisputeStep) =>
  step.effects.map((e) => (e.kind === "emit" ? `emit ${e.event}` : `${e.kind} ${e.amount}`));

describe("the dispute transitions, row by row", () => {
  it.each([
    ["without provisional credit", false, dispute(), ["emit dispute.created"]],
    [
      "with provisional credit",
      true,
      dispute({ provisionalCredit: 40_000 }),
      ["credit-provisionally 40000", "emit dispute.created"],
    ],
  ])("open %s", (_, provisional, expected, effects) => {
    const step = openDispute(40_000, provisional);
    expect(step.dispute).toEqual(expected);
    expect(kinds(step)).toEqual(effects);
  });

  const credited = dispute({ provisionalCredit: 40_000 });
  it.each<[string, (d: Dispute) => DisputeStep, Dispute, Partial<Dispute>, string[]]>([
    ["updateEvidence", updateEvidence, dispute(), { status: "open" }, ["emit dispute.updated"]],
    [
      "win, no provisional credit: the amount is credited now",
      winDispute,
      dispute(),
      { status: "won", owed: 0 },
      ["credit-chargeback 40000", "emit dispute.won"],
    ],
    [
      "win, provisional credit: the chargeback pays it back and it stands",
      winDispute,
      credited,
      { status: "won", provisionalCredit: 40_000, owed: 0 },
      ["recover-provisional-credit 40000", "emit dispute.won"],
    ],
    [
      "lose, no provisional credit: nothing moves",
      (d) => loseDispute(d, 0),
      dispute(),
      { status: "lost" },
      ["emit dispute.lost"],
    ],
    [
      "lose, provisional credit, funds available: all of it is taken back",
      (d) => loseDispute(d, 100_000),
      credited,
      { status: "lost", owed: 0 },
      ["reverse-provisional-credit 40000", "emit dispute.lost"],
    ],
    [
      "lose, provisional credit partly spent: what is available is taken back, the rest owed",
      (d) => loseDispute(d, 15_000),
      credited,
      { status: "lost", owed: 25_000 },
      ["reverse-provisional-credit 15000", "emit dispute.lost"],
    ],
    [
      "lose, provisional credit all spent: nothing to take, all owed",
      (d) => loseDispute(d, 0),
      credited,
      { status: "lost", owed: 40_000 },
      ["emit dispute.lost"],
    ],
    [
      "close, no provisional credit",
      (d) => closeDispute(d, 0),
      dispute(),
      { status: "closed" },
      ["emit dispute.closed"],
    ],
    [
      "close, provisional credit, funds available",
      (d) => closeDispute(d, 40_000),
      credited,
      { status: "closed", owed: 0 },
      ["reverse-provisional-credit 40000", "emit dispute.closed"],
    ],
    [
      "close, provisional credit, available below zero counts as none",
      (d) => closeDispute(d, -5),
      credited,
      { status: "closed", owed: 40_000 },
      ["emit dispute.closed"],
    ],
  ])("%s", (_, transition, from, expected, effects) => {
    const step = transition(from);
    expect(step.dispute).toMatchObject(expected);
    expect(step.dispute.amount).toBe(from.amount);
    expect(kinds(step)).toEqual(effects);
  });
});

describe("illegal transitions are typed errors, never silent", () => {
  const transitions: Array<[string, (d: Dispute) => DisputeStep]> = [
    ["updateEvidence", updateEvidence],
    ["winDispute", winDispute],
    ["loseDispute", (d) => loseDispute(d, 0)],
    ["closeDispute", (d) => closeDispute(d, 0)],
  ];
  const finals: DisputeStatus[] = ["won", "lost", "closed"];
  it.each(finals.flatMap((status) => transitions.map(([name, run]) => [name, status, run] as const)))(
    "%s on a %s dispute",
    (name, status, run) => {
      const attempt = () => run(dispute({ status }));
      expect(attempt).toThrow(IllegalDisputeTransition);
      expect(attempt).toThrow(`${name} is not allowed on a dispute that is ${status}`);
    },
  );
});

describe("admitting a new dispute: the guard rails", () => {
  const capture = (o: Partial<DisputedAuthorization> = {}): DisputedAuthorization => ({
    type: "capture",
    status: "approved",
    amount: 50_000,
    debited: 56_500,
    createdAt: NOW - DAY,
    ...o,
  });
  const within = { now: NOW, windowDays: 120, alreadyWon: 0 };

  it.each<[string, DisputedAuthorization, Partial<typeof within> & { amount?: number }, unknown]>([
    ["the whole merchant amount by default (fees are not disputed)", capture(), {}, { ok: true, amount: 50_000 }],
    ["a part of it", capture(), { amount: 20_000 }, { ok: true, amount: 20_000 }],
    ["exactly what is left", capture(), { amount: 50_000 }, { ok: true, amount: 50_000 }],
    ["what earlier disputes did not win", capture(), { alreadyWon: 30_000 }, { ok: true, amount: 20_000 }],
    [
      "an update declined after capture, still debited",
      capture({ status: "declined" }),
      {},
      { ok: true, amount: 50_000 },
    ],
    ["on the window's last moment", capture({ createdAt: NOW - 120 * DAY }), {}, { ok: true, amount: 50_000 }],
    [
      "a shorter program window",
      capture({ createdAt: NOW - 6 * DAY }),
      { windowDays: 7 },
      { ok: true, amount: 50_000 },
    ],
    ["a declined authorization", capture({ status: "declined", debited: 0 }), {}, { problem: "not-captured" }],
    ["a reversed one", capture({ status: "reversed", debited: 0 }), {}, { problem: "not-captured" }],
    ["a pending one", capture({ status: "pending" }), {}, { problem: "not-captured" }],
    ["a check", capture({ type: "check", amount: 0, debited: 0 }), {}, { problem: "not-captured" }],
    ["one already won in full", capture(), { alreadyWon: 50_000 }, { problem: "nothing-left" }],
    ["past the window", capture({ createdAt: NOW - 120 * DAY - 1 }), {}, { problem: "window-passed" }],
    [
      "past a program's shorter window",
      capture({ createdAt: NOW - 8 * DAY }),
      { windowDays: 7 },
      { problem: "window-passed" },
    ],
    ["more than captured", capture(), { amount: 50_001 }, { problem: "amount-too-large" }],
    ["more than is left", capture(), { amount: 30_000, alreadyWon: 25_000 }, { problem: "amount-too-large" }],
  ])("%s", (_, authorization, request, expected) => {
    const admission = admitDispute(authorization, { ...within, ...request });
    expect(admission).toMatchObject(expected as object);
    if (!admission.ok) expect(admission.message.length).toBeGreaterThan(0);
  });
});
