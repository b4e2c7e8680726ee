import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, call, issueCard, newBusiness, startEngine, type EngineHarness } from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine({ admission: { maxQueuedMs: 2_000 } });
});
afterAll(async () => {
  await h?.stop();
});

const shedCount = async () => {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  return Number(/^authorizations_shed_total (\d+)/m.exec(text)?.[1] ?? "NaN");
};

describe("load shedding of new authorization requests", () => {
  it("refuses at once, creating nothing, a request that waited longer than the limit before it reached the engine", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const path = `/simulation/cards/${card.cardId}/request-authorization/capture`;
    const before = await shedCount();
    const started = Date.now();
    const reply = await call(h, as, "POST", path, { amount: 1_000, channel: "online" }, { "x-received-at": String(Date.now() - 3_000) });
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
    const reply = await call(h, as, "POST", path, { channel: "online" }, { "x-received-at": String(Date.now() - 1_500) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });
});
