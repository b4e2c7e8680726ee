import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { scrape, sampleOf } from "../../../test/support/metrics-scrape";
import { answerDecision, call, captureAsked, issueCard, newBusiness, startEngine, type EngineHarness } from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  // Requests here start with most of their decision window gone (x-received-at in the past), not to wait 4 s.
  h = await startEngine({ admission: { maxQueuedMs: 10_000 } });
});
afterAll(async () => {
  await h?.stop();
});

const lateness = (appliedBy: string, series: "count" | "sum" | "bucket", le?: string) => async () =>
  sampleOf(await scrape(h.url), `authorization_decision_lateness_seconds_${series}`, {
    applied_by: appliedBy,
    ...(le ? { le } : {}),
  });
/** A request waiting in this engine applies its own timeout default; the sweeper leaves it alone. */
const defaulted = (series: "count" | "sum") => lateness("waiting-request", series);

describe("the engine's queue metrics", () => {
  it("show an authorization awaiting its answer, and how late its timeout default was applied", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const defaultedBefore = await defaulted("count")();
    const sweptBefore = await lateness("deadline-sweeper", "count")();
    const path = `/simulation/cards/${card.cardId}/request-authorization/capture`;
    // One second of window left: nobody answers, and the waiting request applies the default.
    const reply = call(
      h,
      as,
      "POST",
      path,
      { amount: 1_000, channel: "online" },
      { "x-received-at": String(Date.now() - 3_000) },
    );
    await eventually(async () => {
      const samples = await scrape(h.url);
      expect(sampleOf(samples, "authorizations_awaiting_answer")).toBeGreaterThanOrEqual(1);
      expect(sampleOf(samples, "authorizations_awaiting_decision")).toBeGreaterThanOrEqual(1);
    }, 900);
    expect((await reply).body.data).toMatchObject({ status: "declined", statusReason: "timeout-error" });
    await eventually(async () => expect(await defaulted("count")()).toBe(defaultedBefore + 1));
    expect(await lateness("deadline-sweeper", "count")()).toBe(sweptBefore);
    // The harness has no grace: the default lands within a few milliseconds of the deadline.
    expect(await defaulted("sum")()).toBeLessThan(1);
    const samples = await scrape(h.url);
    expect(sampleOf(samples, "authorizations_awaiting_answer")).toBe(0);
    expect(sampleOf(samples, "authorizations_answer_overdue_seconds")).toBe(0);
  });

  it("count an answer applied in time as not late", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const onTimeBefore = await lateness("answer", "bucket", "0")();
    const { reply, question } = await captureAsked(h, as, card.cardId);
    await answerDecision(h, as, question, { httpStatus: 200, body: { action: "approve" } });
    expect((await reply).body.data).toMatchObject({ status: "approved" });
    await eventually(async () => expect(await lateness("answer", "bucket", "0")()).toBe(onTimeBefore + 1));
  });

  it("show the outbox backlog and the lag of each of the engine's consumer groups", async () => {
    await h.bus.drained();
    const samples = await scrape(h.url);
    expect(sampleOf(samples, "outbox_backlog_messages")).toBeGreaterThanOrEqual(0);
    expect(sampleOf(samples, "outbox_oldest_message_age_seconds")).toBeLessThan(5);
    const groups = samples
      .filter((s) => s.name === "consumer_lag_messages")
      .map((s) => `${s.labels.group} ${s.labels.topic}`);
    expect(groups).toEqual(
      expect.arrayContaining(["authorization-engine.decisions decisions.v1", "authorization-engine customers.v1"]),
    );
    expect(sampleOf(samples, "consumer_lag_messages", { group: "authorization-engine.decisions" })).toBe(0);
  });
});
