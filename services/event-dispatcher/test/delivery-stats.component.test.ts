import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { announceWebhook, callDispatcher, publishEvent } from "./calls";
import { startDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
const receivers: FakeReceiver[] = [];
beforeAll(async () => {
  h = await startDispatcher();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await h?.stop();
});

async function receiver(): Promise<FakeReceiver> {
  const r = new FakeReceiver();
  receivers.push(r);
  await r.start();
  return r;
}

const api = (method: string, path: string, businessId: string, mode?: "test" | "live") =>
  callDispatcher(h.http, method, path, businessId, undefined, { mode });
const statusOf = async (businessId: string, id: string) =>
  (await api("GET", `/events/${id}`, businessId)).body.data.status;

describe("GET /events/stats", () => {
  const biz = newId("business");

  beforeAll(async () => {
    const r = await receiver();
    await announceWebhook(h.bus, biz, r.url);
    // The first event's first two attempts fail (500, then 503); it is delivered on the third. Two more go through.
    let flakyTries = 0;
    r.answerWith((req) => {
      if (!req.json?.data?.flaky) return { status: 200 };
      flakyTries += 1;
      return flakyTries <= 2 ? { status: flakyTries === 1 ? 500 : 503 } : { status: 200 };
    });
    const flaky = await publishEvent(h.bus, biz, "card.authorization.closed", { status: "approved", flaky: true });
    const others = [
      await publishEvent(h.bus, biz, "card.transaction.created", {}),
      await publishEvent(h.bus, biz, "card.transaction.created", {}),
    ];
    await eventually(async () => {
      for (const e of [flaky, ...others]) expect(await statusOf(biz, e.id)).toBe("delivered");
    }, 10_000);
  });

  it("counts the hour's attempts and failed attempts per minute, with the failure rate", async () => {
    const reply = await api("GET", "/events/stats?window=hour", biz);
    expect(reply.status).toBe(200);
    const data = reply.body.data;
    expect(data).toMatchObject({ window: "hour", bucketSeconds: 60 });
    expect(data.totals).toEqual({ attempts: 5, failed: 2, failureRate: 0.4 });
    const buckets = data.buckets as { start: string; attempts: number; failed: number }[];
    expect(buckets).toHaveLength(60);
    expect(buckets.reduce((n, b) => n + b.attempts, 0)).toBe(5);
    expect(buckets.reduce((n, b) => n + b.failed, 0)).toBe(2);
    const starts = buckets.map((b) => Date.parse(b.start));
    expect(starts.every((s, i) => s % 60_000 === 0 && (i === 0 || s - starts[i - 1]! === 60_000))).toBe(true);
    expect(Date.now() - starts.at(-1)!).toBeLessThan(60_000);
  });

  it("the day in 96 fifteen-minute buckets, with the same totals", async () => {
    const reply = await api("GET", "/events/stats?window=day", biz);
    expect(reply.body.data).toMatchObject({ window: "day", bucketSeconds: 900 });
    expect(reply.body.data.buckets).toHaveLength(96);
    expect(reply.body.data.totals).toEqual({ attempts: 5, failed: 2, failureRate: 0.4 });
  });

  it("another business, and the same business's live mode, see none of it: failure rate 0", async () => {
    for (const [who, mode] of [
      [newId("business"), "test"],
      [biz, "live"],
    ] as const) {
      const { totals, buckets } = (await api("GET", "/events/stats?window=day", who, mode)).body.data;
      expect(totals).toEqual({ attempts: 0, failed: 0, failureRate: 0 });
      expect(buckets.every((b: { attempts: number }) => b.attempts === 0)).toBe(true);
    }
  });

  it("a window other than hour or day is a 400 naming it", async () => {
    for (const query of ["?window=week", "?window=HOUR", "?window=hour&window=day"]) {
      const reply = await api("GET", `/events/stats${query}`, biz);
      expect(reply.status, query).toBe(400);
      expect(reply.body.errors, query).toEqual([expect.objectContaining({ path: "window" })]);
    }
  });
});

describe("one resource's events: GET /events?filter=resourceId:<id>", () => {
  it("selects the events whose resource is that authorization (its transaction's included), nothing else", async () => {
    const r = await receiver();
    const biz = newId("business");
    await announceWebhook(h.bus, biz, r.url);
    const authorization = newId("authorization");
    const mine = [
      await publishEvent(h.bus, biz, "card.authorization.request", { status: "pending" }, authorization),
      await publishEvent(h.bus, biz, "card.authorization.closed", { status: "approved" }, authorization),
      // The engine keys a transaction's event by its authorization: the transaction's id is its own.
      await publishEvent(h.bus, biz, "card.transaction.created", { id: newId("transaction") }, authorization),
    ];
    const other = await publishEvent(h.bus, biz, "card.authorization.closed", { status: "declined" });
    await eventually(async () => expect(await statusOf(biz, other.id)).toBeDefined());
    const list = (filter: string, who = biz) =>
      api("GET", `/events?filter=${encodeURIComponent(filter)}`, who).then((res) => res.body.data);
    const ids = await eventually(async () => {
      const found = (await list(`resourceId:${authorization}`)).map((e: { id: string }) => e.id);
      expect(found).toHaveLength(3);
      return found;
    });
    expect([...ids].sort()).toEqual(mine.map((e) => e.id).sort());
    expect((await list(`resource:${authorization}`)).map((e: { id: string }) => e.id)).toEqual(ids);
    expect(await list(`resourceId:${authorization} event:card.transaction.created`)).toHaveLength(1);
    expect(await list(`resourceId:${authorization}`, newId("business"))).toEqual([]);
  });
});
