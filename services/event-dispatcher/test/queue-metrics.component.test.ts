import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scrape, sampleOf } from "../../../test/support/metrics-scrape";
import { startStoppedDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
beforeAll(async () => {
  // Nothing claims or publishes: what the test stores stays queued for the scrape to see.
  h = await startStoppedDispatcher(["wh.a"]);
});
afterAll(async () => {
  await h.stop();
});

/** `count` deliveries of one kind to wh.a, due `dueInMs` from now (negative: overdue). */
async function store(policy: "decision" | "notification", count: number, dueInMs: number, status = "pending") {
  const tag = `${policy}.${Math.random().toString(36).slice(2, 8)}`;
  await h.pg.db.query(
    `INSERT INTO dispatcher.events (id, business_id, mode, kind, resource_id, envelope, policy, status)
     SELECT 'evt.' || $1 || '.' || i, 'bus.1', 'test', 'card.authorization.request', 'res.' || $1 || '.' || i, '{}', $2, 'pending'
       FROM generate_series(1, $3::int) i`,
    [tag, policy, count],
  );
  await h.pg.db.query(
    `INSERT INTO dispatcher.deliveries (id, event_id, webhook_id, resource_id, policy, status, next_attempt_at)
     SELECT 'del.' || $1 || '.' || i, 'evt.' || $1 || '.' || i, 'wh.a', 'res.' || $1 || '.' || i, $2, $5, now() + $4 * interval '1 millisecond'
       FROM generate_series(1, $3::int) i`,
    [tag, policy, count, dueInMs, status],
  );
}

describe("the dispatcher's queue metrics", () => {
  it("count the deliveries due and not claimed, per kind, and how long the earliest has waited", async () => {
    await store("notification", 5, -10_000);
    await store("notification", 3, 60_000); // a retry not due yet
    await store("notification", 2, -20_000, "delivering"); // claimed
    await store("decision", 1, -2_000);
    const samples = await scrape(h.http.url);
    expect(sampleOf(samples, "deliveries_due", { policy: "notification" })).toBe(5);
    expect(sampleOf(samples, "deliveries_due", { policy: "decision" })).toBe(1);
    const oldestNotification = sampleOf(samples, "deliveries_oldest_due_seconds", { policy: "notification" });
    expect(oldestNotification).toBeGreaterThanOrEqual(10);
    expect(oldestNotification).toBeLessThan(15);
    expect(sampleOf(samples, "deliveries_oldest_due_seconds", { policy: "decision" })).toBeGreaterThanOrEqual(2);
  });

  it("count the outbox rows not yet published and the age of the oldest", async () => {
    await h.pg.db.query(
      `INSERT INTO dispatcher.outbox (id, topic, key, value, created_at)
       VALUES ('msg.m1', 'decisions.v1', 'k', null, now() - interval '30 seconds'), ('msg.m2', 'decisions.v1', 'k', null, now())`,
    );
    const samples = await scrape(h.http.url);
    expect(sampleOf(samples, "outbox_backlog_messages")).toBe(2);
    expect(sampleOf(samples, "outbox_oldest_message_age_seconds")).toBeGreaterThanOrEqual(30);
    expect(sampleOf(samples, "outbox_oldest_message_age_seconds")).toBeLessThan(40);
  });

  it("show the lag of the dispatcher's consumer groups", async () => {
    const samples = await scrape(h.http.url);
    expect(sampleOf(samples, "consumer_lag_messages", { group: "event-dispatcher.events", topic: "events.v1" })).toBe(
      0,
    );
    expect(
      sampleOf(samples, "consumer_lag_messages", { group: "event-dispatcher.webhooks", topic: "webhooks.v1" }),
    ).toBe(0);
  });
});
