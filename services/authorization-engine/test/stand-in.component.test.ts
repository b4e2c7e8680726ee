import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import {
  answerDecision,
  balanceOf,
  call,
  issueCard,
  newBusiness,
  nextEvent,
  startEngine,
  type Business,
  type EngineHarness,
  type IssuedCard,
} from "./harness";
import { standInCaptures } from "./stand-in-support";

let h: EngineHarness;
beforeAll(async () => {
  // Requests that play ones which queued for seconds (x-received-at in the past) are decided at once, without asking
  // the receiver (platform-overloaded): load shedding, which would refuse them, is tested elsewhere.
  h = await startEngine({ admission: { maxQueuedMs: 10_000 } });
});
afterAll(async () => {
  await h?.stop();
});

const { seen, capturePath, answered, overdue, closedEventOf } = standInCaptures(() => h);

const dailyRule = {
  rules: [{ name: "small", approveUpTo: 2_000, perCardDaily: 3_000 }],
  otherwise: "decline",
};

describe("stand-in rules decide a capture that gets no usable answer", () => {
  it("approves within the limits, declines past the per-card daily limit, and tells the receiver which rule", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000, standIn: dailyRule, timeoutDefault: "decline" });

    const timedOut = await call(h, as, "POST", capturePath(card), { amount: 1_500, channel: "online" });
    expect(timedOut.body.data).toMatchObject({
      status: "approved",
      decisionType: "stand-in",
      standInRule: "small",
      statusReason: "timeout-error",
    });
    expect((await closedEventOf(timedOut.body.data.id)).data).toMatchObject({
      status: "approved",
      decisionType: "stand-in",
      standInRule: "small",
      statusReason: "timeout-error",
    });

    // Its decision event went unanswered: not one for the next capture to answer.
    await nextEvent(h, seen, (e) => e.event === "card.authorization.request" && e.data.id === timedOut.body.data.id);

    const failing = await answered(as, card, { amount: 1_500, channel: "online" }, { httpStatus: 500 });
    expect(failing.body.data).toMatchObject({
      status: "approved",
      decisionType: "stand-in",
      standInRule: "small",
      statusReason: "webhook-error",
    });

    const pastLimit = await answered(
      as,
      card,
      { amount: 100, channel: "online" },
      { body: { action: "approve", amount: 50 } },
    );
    expect(pastLimit.body.data).toMatchObject({
      status: "declined",
      decisionType: "stand-in",
      standInRule: "small",
      statusReason: "invalid-response",
      reserved: false,
    });
    expect(pastLimit.body.data).not.toHaveProperty("declineReason");
    expect((await closedEventOf(pastLimit.body.data.id)).data).toMatchObject({
      status: "declined",
      decisionType: "stand-in",
      standInRule: "small",
    });

    const answeredDirectly = await answered(
      as,
      card,
      { amount: 100, channel: "online" },
      { body: { action: "approve" } },
    );
    expect(answeredDirectly.body.data).toMatchObject({ status: "approved", decisionType: "direct-response" });
    expect(answeredDirectly.body.data).not.toHaveProperty("standInRule");
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 6_900, held: 0 });
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  }, 20_000);

  it("applies a rule only to the MCCs and channels it lists; no rule takes it: otherwise", async () => {
    const as = newBusiness();
    const standIn = {
      rules: [
        { name: "fuel", approveUpTo: 5_000, mccs: ["5541-5542"] },
        { name: "pos", approveUpTo: 1_000, channels: ["pos", "in-app"] },
      ],
      otherwise: "decline",
    };
    const card = await issueCard(h, as, { funds: 50_000, standIn });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ amount: 4_000, channel: "online", mcc: "5541" }, "approved", "fuel"],
      [{ amount: 800, channel: "pos" }, "approved", "pos"],
      [{ amount: 1_200, channel: "pos", mcc: "7011" }, "declined", "pos"],
      [{ amount: 100, channel: "online", mcc: "7011" }, "declined", "otherwise"],
      [{ amount: 100, channel: "atm" }, "declined", "otherwise"],
    ];
    for (const [request, status, rule] of cases) {
      const reply = await overdue(as, card, request);
      expect(reply.body.data, JSON.stringify(request)).toMatchObject({
        status,
        decisionType: "stand-in",
        standInRule: rule,
        statusReason: "platform-overloaded",
      });
    }
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 45_200, held: 0 });
  });

  it("leaves checks to the flat timeout default", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { standIn: { rules: [], otherwise: "approve" } });
    const reply = await call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/check`, {
      channel: "pos",
    });
    expect(reply.body.data).toMatchObject({ status: "declined", decisionType: "system-response" });
  }, 10_000);
});

describe("without stand-in rules the flat timeout default decides, as before", () => {
  it("approves or declines as a system-response, naming no rule", async () => {
    for (const timeoutDefault of ["approve", "decline"] as const) {
      const as = newBusiness();
      const card = await issueCard(h, as, { funds: 10_000, timeoutDefault });
      const reply = await answered(as, card, { amount: 1_000, channel: "online" }, { httpStatus: 500 });
      expect(reply.body.data).toMatchObject({
        status: timeoutDefault === "approve" ? "approved" : "declined",
        decisionType: "system-response",
        statusReason: "webhook-error",
      });
      expect(reply.body.data).not.toHaveProperty("standInRule");
      const program = await call(h, as, "GET", `/card-programs/${card.programId}`);
      expect(program.body.data.authorization).not.toHaveProperty("standIn");
    }
  });
});

describe("a program's authorization.standIn", () => {
  const program = (standIn: unknown) => ({
    name: "Stand-in",
    network: "verve",
    type: "virtual",
    currency: "NGN",
    authorization: { standIn },
  });

  it("is kept as given and shown on the program", async () => {
    const as = newBusiness();
    const standIn = {
      rules: [{ name: "fuel", approveUpTo: 5_000, perCardDaily: 20_000, mccs: "5541-5542", channels: ["pos"] }],
    };
    const created = await call(h, as, "POST", "/card-programs", program(standIn));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const shown = {
      rules: [{ name: "fuel", approveUpTo: 5_000, perCardDaily: 20_000, mccs: ["5541-5542"], channels: ["pos"] }],
      otherwise: "decline",
    };
    expect(created.body.data.authorization.standIn).toEqual(shown);
    const read = await call(h, as, "GET", `/card-programs/${created.body.data.id}`);
    expect(read.body.data.authorization.standIn).toEqual(shown);
  });

  it.each<[string, unknown, string]>([
    ["a rule without approveUpTo", { rules: [{ perCardDaily: 1 }] }, "approveUpTo"],
    ["an unknown rule field", { rules: [{ approveUpTo: 1, perCardDialy: 1 }] }, "perCardDialy"],
    ["a negative limit", { rules: [{ approveUpTo: -1 }] }, "approveUpTo"],
    ["a bad MCC list", { rules: [{ approveUpTo: 1, mccs: ["55"] }] }, "mccs"],
    ["an unknown channel", { rules: [{ approveUpTo: 1, channels: ["phone"] }] }, "channels"],
    [
      "two rules of one name",
      {
        rules: [
          { name: "a", approveUpTo: 1 },
          { name: "a", approveUpTo: 2 },
        ],
      },
      "unique",
    ],
    ["a rule named otherwise", { rules: [{ name: "otherwise", approveUpTo: 1 }] }, "otherwise"],
    ["an unknown otherwise", { rules: [], otherwise: "maybe" }, "otherwise"],
  ])("refuses %s with a 400", async (_name, standIn, mentioned) => {
    const reply = await call(h, newBusiness(), "POST", "/card-programs", program(standIn));
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain(mentioned);
  });
});

describe("the per-card daily stand-in limit under concurrency", () => {
  it("concurrent captures never get more by stand-in than the limit, and only those past it are declined", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 3_000 }), { minLength: 2, maxLength: 8 }),
        fc.integer({ min: 1_000, max: 8_000 }),
        fc.constantFrom("too late to ask", "unusable answers"),
        async (amounts, perCardDaily, path) => {
          const as = newBusiness();
          const standIn = { rules: [{ approveUpTo: 3_000, perCardDaily }], otherwise: "approve" };
          const card = await issueCard(h, as, { funds: 100_000, standIn });
          const request = (amount: number) => ({ amount, channel: "pos" });
          const replies =
            path === "too late to ask"
              ? await Promise.all(amounts.map((amount) => overdue(as, card, request(amount))))
              : await allAnsweredUnusably(as, card, amounts.map(request));
          const decided = replies.map((r) => r.body.data as { status: string; amount: number; decisionType: string });
          expect(decided.every((d) => d.decisionType === "stand-in")).toBe(true);
          const approvedTotal = decided.filter((d) => d.status === "approved").reduce((sum, d) => sum + d.amount, 0);
          expect(approvedTotal).toBeLessThanOrEqual(perCardDaily);
          for (const d of decided.filter((d) => d.status === "declined"))
            expect(approvedTotal + d.amount).toBeGreaterThan(perCardDaily);
          expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({
            available: 100_000 - approvedTotal,
            held: 0,
          });
        },
      ),
      { numRuns: 12 },
    );
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  }, 60_000);
});

/** Captures sent at once, whose decision events are all answered at once with an error status. */
async function allAnsweredUnusably(as: Business, card: IssuedCard, requests: Record<string, unknown>[]) {
  const replies = requests.map((r) => call(h, as, "POST", capturePath(card), r));
  const questions = [];
  for (let i = 0; i < requests.length; i++)
    questions.push(
      await nextEvent(
        h,
        seen,
        (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === card.cardId,
      ),
    );
  await Promise.all(questions.map((q) => answerDecision(h, as, q, { httpStatus: 500 })));
  return Promise.all(replies);
}
