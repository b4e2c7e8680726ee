import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@cardhold/db";
import { claimDueDeliveries, type ClaimLimits } from "../src/store/deliveries.store";
import { startStoppedDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
let db: Db;

beforeAll(async () => {
  h = await startStoppedDispatcher(["wh.a", "wh.b", "wh.c"]);
  db = h.pg.db;
});
afterAll(async () => {
  await h.stop();
});
beforeEach(async () => {
  await db.query("DELETE FROM dispatcher.deliveries");
  await db.query("DELETE FROM dispatcher.events");
});

const ROOM: ClaimLimits = {
  limit: 64,
  notifications: 48,
  claimMs: 30_000,
  perWebhookDecisions: 32,
  perWebhookNotifications: 8,
  busy: [],
};

/** `count` deliveries to one webhook, each its own resource unless one is given, due `dueInMs` from now (in seq order). */
async function store(
  webhookId: string,
  policy: "decision" | "notification",
  count: number,
  opts: { resource?: string; dueInMs?: number; status?: string } = {},
) {
  const tag = `${webhookId}.${policy}.${Math.random().toString(36).slice(2, 8)}`;
  await db.query(
    `INSERT INTO dispatcher.events (id, business_id, mode, kind, resource_id, envelope, policy, status)
     SELECT 'evt.' || $1 || '.' || i, 'bus.1', 'test', 'card.authorization.closed', COALESCE($3, 'res.' || $1 || '.' || i), '{}', $2, 'pending'
       FROM generate_series(1, $4::int) i`,
    [tag, policy, opts.resource ?? null, count],
  );
  await db.query(
    `INSERT INTO dispatcher.deliveries (id, event_id, webhook_id, resource_id, policy, status, next_attempt_at)
     SELECT 'del.' || $1 || '.' || i, e.id, $2, e.resource_id, $3, $5, now() + $4 * interval '1 millisecond'
       FROM generate_series(1, $6::int) i JOIN dispatcher.events e ON e.id = 'evt.' || $1 || '.' || i ORDER BY i`,
    [tag, webhookId, policy, opts.dueInMs ?? -1_000, opts.status ?? "pending", count],
  );
  return Array.from({ length: count }, (_, i) => `del.${tag}.${i + 1}`);
}

const claimed = async (limits: Partial<ClaimLimits> = {}) =>
  (await claimDueDeliveries(db, { ...ROOM, ...limits })).deliveries.map((d) => d.id);

describe("the delivery worker's claim", () => {
  it("gives each lane no more than its room, in claim order, with what the worker needs to send", async () => {
    const a = await store("wh.a", "notification", 12);
    const b = await store("wh.b", "notification", 3);
    const claim = await claimDueDeliveries(db, {
      ...ROOM,
      busy: [{ webhookId: "wh.a", policy: "notification", room: 5 }],
    });
    expect(claim.deliveries.map((d) => d.id).sort()).toEqual([...a.slice(0, 5), ...b].sort());
    expect(claim.deliveries[0]).toMatchObject({
      url: expect.stringContaining("http://127.0.0.1:9/"),
      sealed_signing_key: expect.stringMatching(/^v1:sealed-wh\.[ab]$/),
      attempts: 1,
      event_deliveries: 1,
    });
    expect(await claimed()).toEqual(a.slice(5, 12));
  });

  it("a webhook with a long backlog and no room does not keep another webhook's deliveries from being claimed", async () => {
    await store("wh.a", "notification", 3_000);
    const b = await store("wh.b", "notification", 2);
    expect(await claimed({ busy: [{ webhookId: "wh.a", policy: "notification", room: 0 }] })).toEqual(b);
  });

  it("claims decisions first, and no more than the limit in all and the notifications' budget", async () => {
    const notifications = await store("wh.a", "notification", 5);
    const decisions = await store("wh.b", "decision", 3);
    expect(await claimed({ limit: 4, notifications: 4 })).toEqual([...decisions, notifications[0]]);
    expect(await claimed({ limit: 10, notifications: 2 })).toEqual(notifications.slice(1, 3));
    expect(await claimed({ notifications: 0 })).toEqual([]);
  });

  it("claims nothing that is not due yet", async () => {
    await store("wh.a", "notification", 2, { dueInMs: 60_000 });
    expect(await claimed()).toEqual([]);
  });

  it("keeps a resource's order: a delivery behind an unfinished one of its resource waits, and is counted", async () => {
    await store("wh.c", "notification", 1, { resource: "res.same", status: "delivering" });
    const behind = await store("wh.c", "notification", 2, { resource: "res.same" });
    const other = await store("wh.c", "notification", 1);
    const claim = await claimDueDeliveries(db, ROOM);
    expect(claim.deliveries.map((d) => d.id)).toEqual(other);
    expect(claim.blocked).toBe(2);
    await db.query(
      "UPDATE dispatcher.deliveries SET status = 'delivered' WHERE status = 'delivering' AND resource_id = 'res.same'",
    );
    expect(await claimed()).toEqual([behind[0]]);
  });
});
