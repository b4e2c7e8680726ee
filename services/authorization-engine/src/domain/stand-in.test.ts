import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  needsApprovedToday,
  standInDayStart,
  standInInForce,
  standInVerdict,
  type StandIn,
  type StandInInForce,
  type StandInSubject,
  type StandInVerdict,
} from "./stand-in";

const rules: StandIn = {
  rules: [
    { name: "fuel", approveUpTo: 20_000, perCardDaily: 50_000, mccs: ["5541-5542"] },
    { approveUpTo: 5_000, channels: ["pos", "in-app"] },
    { name: "atm-cash", approveUpTo: 10_000, perCardDaily: 10_000, channels: ["atm"], mccs: ["6011"] },
  ],
  otherwise: "decline",
};
const capture = (o: Partial<StandInSubject> = {}): StandInSubject => ({ amount: 1_000, channel: "online", ...o });

describe("the stand-in verdict: the first rule that takes the capture decides", () => {
  it.each<[string, StandIn, StandInSubject, number, StandInVerdict]>([
    [
      "no rules, otherwise decline",
      { rules: [], otherwise: "decline" },
      capture(),
      0,
      { action: "decline", rule: "otherwise" },
    ],
    [
      "no rules, otherwise approve",
      { rules: [], otherwise: "approve" },
      capture(),
      0,
      { action: "approve", rule: "otherwise" },
    ],
    [
      "an MCC in a rule's range, within both limits",
      rules,
      capture({ mcc: "5542" }),
      0,
      { action: "approve", rule: "fuel" },
    ],
    [
      "exactly approveUpTo",
      rules,
      capture({ mcc: "5541", amount: 20_000 }),
      30_000,
      { action: "approve", rule: "fuel" },
    ],
    [
      "over approveUpTo: that rule declines",
      rules,
      capture({ mcc: "5541", amount: 20_001 }),
      0,
      { action: "decline", rule: "fuel" },
    ],
    [
      "exactly what is left of the day",
      rules,
      capture({ mcc: "5541", amount: 10_000 }),
      40_000,
      { action: "approve", rule: "fuel" },
    ],
    [
      "past the per-card daily limit",
      rules,
      capture({ mcc: "5541", amount: 10_001 }),
      40_000,
      { action: "decline", rule: "fuel" },
    ],
    [
      "an unnamed rule by channel, named by its index",
      rules,
      capture({ channel: "pos" }),
      0,
      { action: "approve", rule: "rules[1]" },
    ],
    [
      "an unnamed rule's limit",
      rules,
      capture({ channel: "in-app", amount: 5_001 }),
      0,
      { action: "decline", rule: "rules[1]" },
    ],
    [
      "a rule without a daily limit ignores the day",
      rules,
      capture({ channel: "pos" }),
      1_000_000,
      { action: "approve", rule: "rules[1]" },
    ],
    [
      "the first rule that takes it, not the most generous",
      rules,
      capture({ channel: "pos", mcc: "5541", amount: 15_000 }),
      0,
      { action: "approve", rule: "fuel" },
    ],
    [
      "both filters must take it",
      rules,
      capture({ channel: "atm", mcc: "6010" }),
      0,
      { action: "decline", rule: "otherwise" },
    ],
    [
      "both filters take it",
      rules,
      capture({ channel: "atm", mcc: "6011" }),
      9_000,
      { action: "approve", rule: "atm-cash" },
    ],
    [
      "no MCC: a rule with MCCs does not take it",
      rules,
      capture({ channel: "online" }),
      0,
      { action: "decline", rule: "otherwise" },
    ],
    [
      "a channel no rule names → otherwise",
      { ...rules, otherwise: "approve" },
      capture({ channel: "online", mcc: "7011" }),
      0,
      { action: "approve", rule: "otherwise" },
    ],
    [
      "empty filters take any capture",
      { rules: [{ approveUpTo: 1, mccs: [], channels: [] }], otherwise: "decline" },
      capture({ amount: 1 }),
      0,
      { action: "approve", rule: "rules[0]" },
    ],
    [
      "a zero approveUpTo approves only zero",
      { rules: [{ approveUpTo: 0 }], otherwise: "approve" },
      capture(),
      0,
      { action: "decline", rule: "rules[0]" },
    ],
  ])("%s", (_name, standIn, subject, approvedToday, verdict) => {
    expect(standInVerdict(subject, standIn, approvedToday)).toEqual(verdict);
  });

  it.each<[string, StandInSubject, boolean]>([
    ["the deciding rule has a daily limit", capture({ mcc: "5541" }), true],
    ["the deciding rule has none", capture({ channel: "pos" }), false],
    ["no rule takes it", capture(), false],
  ])("reads what stand-in approved today only when %s", (_name, subject, needed) => {
    expect(needsApprovedToday(subject, rules)).toBe(needed);
  });

  it("counts the day from UTC midnight", () => {
    expect(new Date(standInDayStart(Date.parse("2026-03-04T23:59:59.999Z"))).toISOString()).toBe(
      "2026-03-04T00:00:00.000Z",
    );
    expect(new Date(standInDayStart(Date.parse("2026-03-05T00:00:00.000Z"))).toISOString()).toBe(
      "2026-03-05T00:00:00.000Z",
    );
  });
});

describe("the per-card daily limit over any day of captures", () => {
  it("never lets what stand-in approved exceed it, and declines only what would", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(fc.integer({ min: 0, max: 30_000 }), { maxLength: 30 }),
        (approveUpTo, perCardDaily, amounts) => {
          const standIn: StandIn = { rules: [{ approveUpTo, perCardDaily }], otherwise: "approve" };
          let approvedToday = 0;
          for (const amount of amounts) {
            const verdict = standInVerdict(capture({ amount }), standIn, approvedToday);
            const fits = amount <= approveUpTo && approvedToday + amount <= perCardDaily;
            if ((verdict.action === "approve") !== fits) return false;
            if (verdict.action === "approve") approvedToday += amount;
            if (approvedToday > perCardDaily) return false;
          }
          return true;
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe("which stand-in rules a capture gets", () => {
  const programRules: StandIn = { rules: [{ name: "program", approveUpTo: 1_000 }], otherwise: "decline" };
  const webhookRules: StandIn = { rules: [{ name: "webhook", approveUpTo: 9_000 }], otherwise: "approve" };
  const noRules: StandIn = { rules: [], otherwise: "decline" };

  it.each<[string, StandIn | null, StandIn | null, StandInInForce | null]>([
    ["the program's when both have rules", programRules, webhookRules, { standIn: programRules, source: "program" }],
    ["the program's when only it has rules", programRules, null, { standIn: programRules, source: "program" }],
    ["the webhook's when the program has none", null, webhookRules, { standIn: webhookRules, source: "webhook" }],
    ["none when neither has rules: the timeout default decides", null, null, null],
    ["the program's even with no rules but otherwise", noRules, webhookRules, { standIn: noRules, source: "program" }],
  ])("%s", (_name, program, webhook, inForce) => {
    expect(standInInForce(program, webhook)).toEqual(inForce);
  });

  it("decides by the rules it picked: the webhook's verdict names the webhook's rule", () => {
    const picked = standInInForce(null, webhookRules)!;
    expect(standInVerdict(capture({ amount: 5_000 }), picked.standIn, 0)).toEqual({
      action: "approve",
      rule: "webhook",
    });
  });
});
