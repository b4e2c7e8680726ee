import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerDecision,
  balanceOf,
  captureAsked,
  call,
  issueCard,
  newBusiness,
  nextEvent,
  startEngine,
  type EngineHarness,
} from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine({ admission: { maxQueuedMs: 2_000 } });
});
afterAll(async () => {
  await h?.stop();
});

/** A metric's value; fails the test when the metric is missing (a NaN would compare equal to NaN + 1). */
const metric = async (name: string, engine: EngineHarness = h) => {
  const text = await (await fetch(`${engine.url}/metrics`)).text();
  const value = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, "m").exec(text)?.[1];
  if (value === undefined) throw new Error(`metric ${name} is not exposed`);
  return Number(value);
};
const shedCount = () => metric("authorizations_shed_total");

describe("load shedding of new authorization requests", () => {
  it("refuses at once, creating nothing, a request that waited longer than the limit before it reached the engine", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const path = `/simulation/cards/${card.cardId}/request-authorization/capture`;
    const before = await shedCount();
    const started = Date.now();
    const reply = await call(
      h,
      as,
      "POST",
      path,
      { amount: 1_000, channel: "online" },
      { "x-received-at": String(Date.now() - 3_000) },
    );
    expect(Date.now() - started).toBeLessThan(500);
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({ code: "platform-overloaded" });
    expect(await shedCount()).toBe(before + 1);
    const list = await call(h, as, "GET", `/card-authorizations?filter=card:${card.cardId}`);
    expect(list.body.data).toEqual([]);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000, held: 0 });
    expect(h.events.some((e) => (e.data as { card?: string }).card === card.cardId)).toBe(false);
  });

  it("takes a request that arrived within the limit as usual", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const path = `/simulation/cards/${card.cardId}/request-authorization/check`;
    const reply = await call(
      h,
      as,
      "POST",
      path,
      { channel: "online" },
      { "x-received-at": String(Date.now() - 1_500) },
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });

  it("shows an authorization under way and waiting for its answer in the engine's gauges until it is decided", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    expect(await metric("authorizations_in_progress")).toBe(0);
    const { reply: capture, question: request } = await captureAsked(h, as, card.cardId, 500);
    expect(await metric("authorizations_in_progress")).toBe(1);
    expect(await metric("authorizations_awaiting_decision")).toBe(1);
    expect(await metric("authorizations_waiting_for_place")).toBe(0);
    expect(await metric("database_connections_waiting")).toBe(0);
    await answerDecision(h, as, request, { body: { action: "approve" } });
    expect((await capture).body.data).toMatchObject({ status: "approved" });
    expect(await metric("authorizations_in_progress")).toBe(0);
    expect(await metric("authorizations_awaiting_decision")).toBe(0);
  });
});

describe("admission places shared between businesses", () => {
  let shared: EngineHarness;
  beforeAll(async () => {
    shared = await startEngine({ admission: { maxInProgress: 2, maxInProgressPerTenant: 1, maxQueuedMs: 300 } });
  });
  afterAll(async () => {
    await shared?.stop();
  });
  const capture = (as: ReturnType<typeof newBusiness>, cardId: string) =>
    call(shared, as, "POST", `/simulation/cards/${cardId}/request-authorization/capture`, {
      amount: 100,
      channel: "online",
    });
  const requestFor = (cardId: string) =>
    nextEvent(
      shared,
      new Set(),
      (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === cardId,
    );

  it("a business waiting on its decisions at its limit is refused the next place; another business takes it", async () => {
    const [stalled, other] = [newBusiness(), newBusiness()];
    const stalledCard = await issueCard(shared, stalled, { funds: 10_000 });
    const otherCard = await issueCard(shared, other, { funds: 10_000 });
    const waiting = capture(stalled, stalledCard.cardId);
    const waitingRequest = await requestFor(stalledCard.cardId);
    const refused = await capture(stalled, stalledCard.cardId);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: "platform-overloaded" });
    const otherCapture = capture(other, otherCard.cardId);
    await answerDecision(shared, other, await requestFor(otherCard.cardId), { body: { action: "approve" } });
    expect((await otherCapture).body.data).toMatchObject({ status: "approved" });
    await answerDecision(shared, stalled, waitingRequest, { body: { action: "approve" } });
    expect((await waiting).body.data).toMatchObject({ status: "approved" });
  });
});

describe("admission places while the engine's own work is slow", () => {
  let slow: EngineHarness;
  beforeAll(async () => {
    // Every first transaction counts as slow (it takes more than 0 ms): the places shrink with each request.
    slow = await startEngine({ admission: { maxInProgress: 40, slowPlatformMs: 0, minInProgress: 30 } });
  });
  afterAll(async () => {
    await slow?.stop();
  });
  const places = () => metric("authorization_admission_places", slow);

  it("shrinks them after a request whose transaction was slow, and shows it in the gauge", async () => {
    const as = newBusiness();
    const card = await issueCard(slow, as, { funds: 10_000 });
    expect(await places()).toBe(40);
    const check = await call(slow, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/check`, {
      channel: "online",
    });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(await places()).toBe(36);
    await new Promise((r) => setTimeout(r, 120)); // past the spacing between two cuts
    await call(slow, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/check`, { channel: "pos" });
    expect(await places()).toBe(32);
  });
});
