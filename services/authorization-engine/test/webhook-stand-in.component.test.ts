import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import { announceWebhook, balanceOf, call, issueCard, newBusiness, startEngine, type EngineHarness } from "./harness";
import { standInCaptures } from "./stand-in-support";

/** Stand-in rules carried by a webhook (webhooks.v1 standIn): applied when the card's program has none of its own. */

let h: EngineHarness;
beforeAll(async () => {
  // Requests that play ones which queued for seconds (x-received-at in the past) are decided at once, without asking
  // the receiver (platform-overloaded): load shedding, which would refuse them, is tested elsewhere.
  h = await startEngine({ admission: { maxQueuedMs: 10_000 } });
});
afterAll(async () => {
  await h?.stop();
});

const { answered, overdue, closedEventOf } = standInCaptures(() => h);

const webhookRules = {
  rules: [{ name: "webhook-small", approveUpTo: 2_000, perCardDaily: 3_000 }],
  otherwise: "decline" as const,
};

describe("a webhook's stand-in rules", () => {
  it("decide a capture without a usable answer when the program has none, and the closed event says whose", async () => {
    const as = newBusiness();
    await announceWebhook(h, as, { isDefault: true, timeoutDefault: "decline", standIn: webhookRules });
    const card = await issueCard(h, as, { funds: 10_000 });

    const timedOut = await overdue(as, card, { amount: 1_500, channel: "online" });
    const byWebhook = { decisionType: "stand-in", standInRule: "webhook-small", standInSource: "webhook" };
    expect(timedOut.body.data).toMatchObject({ status: "approved", ...byWebhook });
    expect((await closedEventOf(timedOut.body.data.id)).data).toMatchObject({ status: "approved", ...byWebhook });

    const unusable = await answered(as, card, { amount: 1_000, channel: "pos" }, { httpStatus: 500 });
    expect(unusable.body.data).toMatchObject({ status: "approved", statusReason: "webhook-error", ...byWebhook });

    // 2,500 approved by stand-in today: 600 more would pass the webhook rule's 3,000 a day.
    const pastLimit = await overdue(as, card, { amount: 600, channel: "online" });
    expect(pastLimit.body.data).toMatchObject({ status: "declined", reserved: false, ...byWebhook });
    expect((await closedEventOf(pastLimit.body.data.id)).data).toMatchObject({ status: "declined", ...byWebhook });

    const direct = await answered(as, card, { amount: 100, channel: "online" }, { body: { action: "approve" } });
    expect(direct.body.data).toMatchObject({ status: "approved", decisionType: "direct-response" });
    expect(direct.body.data).not.toHaveProperty("standInRule");
    expect(direct.body.data).not.toHaveProperty("standInSource");
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 7_400, held: 0 });
  }, 20_000);

  it("leave checks to the webhook's flat timeout default", async () => {
    const as = newBusiness();
    await announceWebhook(h, as, {
      isDefault: true,
      timeoutDefault: "decline",
      standIn: { rules: [], otherwise: "approve" },
    });
    const card = await issueCard(h, as);
    const checkPath = `/simulation/cards/${card.cardId}/request-authorization/check`;
    const reply = await call(
      h,
      as,
      "POST",
      checkPath,
      { channel: "pos" },
      { "x-received-at": String(Date.now() - 3_900) },
    );
    expect(reply.body.data).toMatchObject({ status: "declined", decisionType: "system-response" });
    expect(reply.body.data).not.toHaveProperty("standInSource");
  });

  it("lose to the program's own rules, whatever either says", async () => {
    const as = newBusiness();
    await announceWebhook(h, as, { isDefault: true, standIn: { rules: [], otherwise: "approve" } });
    const programRules = { rules: [{ name: "program-tiny", approveUpTo: 100 }], otherwise: "decline" };
    const card = await issueCard(h, as, { funds: 10_000, standIn: programRules });
    const reply = await overdue(as, card, { amount: 1_000, channel: "online" });
    expect(reply.body.data).toMatchObject({
      status: "declined",
      decisionType: "stand-in",
      standInRule: "program-tiny",
      standInSource: "program",
    });
    expect((await closedEventOf(reply.body.data.id)).data).toMatchObject({ standInSource: "program" });
  });

  it("win over a flat timeoutDefault, the program's included", async () => {
    const as = newBusiness();
    await announceWebhook(h, as, { isDefault: true, standIn: { rules: [], otherwise: "approve" } });
    const card = await issueCard(h, as, { funds: 10_000, timeoutDefault: "decline" });
    const reply = await overdue(as, card, { amount: 1_000, channel: "online" });
    expect(reply.body.data).toMatchObject({
      status: "approved",
      decisionType: "stand-in",
      standInRule: "otherwise",
      standInSource: "webhook",
    });
  });

  it("are those of the webhook that decides: the program's own webhook, else the one naming the request, else the default", async () => {
    const as = newBusiness();
    const rulesNamed = (name: string) => ({ rules: [{ name, approveUpTo: 5_000 }], otherwise: "decline" as const });
    await announceWebhook(h, as, { isDefault: true, standIn: rulesNamed("default") });
    const onDefault = await issueCard(h, as);
    expect((await overdue(as, onDefault, { amount: 10, channel: "pos" })).body.data.standInRule).toBe("default");

    await announceWebhook(h, as, {
      isDefault: false,
      status: "enabled",
      events: ["card.authorization.request"],
      standIn: rulesNamed("routed"),
    });
    expect((await overdue(as, onDefault, { amount: 10, channel: "pos" })).body.data.standInRule).toBe("routed");

    const own = await announceWebhook(h, as, { isDefault: false, events: [], standIn: rulesNamed("own") });
    const onOwn = await issueCard(h, as, { webhook: own });
    expect((await overdue(as, onOwn, { amount: 10, channel: "pos" })).body.data).toMatchObject({
      standInRule: "own",
      standInSource: "webhook",
    });
  });

  it("follow the webhook's changes: new rules decide the next capture; removed, the flat timeout default does", async () => {
    const as = newBusiness();
    const id = await announceWebhook(h, as, { isDefault: true, timeoutDefault: "approve", standIn: webhookRules });
    const card = await issueCard(h, as, { funds: 10_000 });
    expect((await overdue(as, card, { amount: 2_500, channel: "pos" })).body.data).toMatchObject({
      status: "declined",
      standInRule: "webhook-small",
    });

    const looser = { rules: [{ name: "webhook-large", approveUpTo: 5_000 }], otherwise: "decline" as const };
    await announceWebhook(h, as, { id, isDefault: true, timeoutDefault: "approve", standIn: looser });
    expect((await overdue(as, card, { amount: 2_500, channel: "pos" })).body.data).toMatchObject({
      status: "approved",
      standInRule: "webhook-large",
    });

    await announceWebhook(h, as, { id, isDefault: true, timeoutDefault: "approve", standIn: null });
    const flat = await overdue(as, card, { amount: 2_500, channel: "pos" });
    expect(flat.body.data).toMatchObject({ status: "approved", decisionType: "system-response" });
    expect(flat.body.data).not.toHaveProperty("standInRule");
  });
});

describe("the per-card daily limit of a webhook's rule under concurrency", () => {
  it("concurrent captures never get more by stand-in than the limit, and only those past it are declined", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 3_000 }), { minLength: 2, maxLength: 8 }),
        fc.integer({ min: 1_000, max: 8_000 }),
        async (amounts, perCardDaily) => {
          const as = newBusiness();
          await announceWebhook(h, as, {
            isDefault: true,
            standIn: { rules: [{ approveUpTo: 3_000, perCardDaily }], otherwise: "approve" },
          });
          const card = await issueCard(h, as, { funds: 100_000 });
          const replies = await Promise.all(amounts.map((amount) => overdue(as, card, { amount, channel: "pos" })));
          const decided = replies.map((r) => r.body.data as { status: string; amount: number; standInSource: string });
          expect(decided.every((d) => d.standInSource === "webhook")).toBe(true);
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
      { numRuns: 8 },
    );
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  }, 60_000);
});
