import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import type { Db } from "@cardhold/db";
import { createAttemptRecorder } from "../src/delivery/attempt-recorder";
import type { AttemptOutcome, NextStep } from "../src/store/deliveries.store";
import { insertEventsWithDeliveries, type InsertClaim } from "../src/store/events.store";
import { startDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
let db: Db;
let n = 0;
const ROOM: InsertClaim = {
  limit: 64,
  notifications: 48,
  claimMs: 30_000,
  perWebhookDecisions: 32,
  perWebhookNotifications: 8,
  busy: [],
  chain: 4,
};

beforeAll(async () => {
  h = await startDispatcher();
  db = h.pg.db;
  await h.service.stop(); // nothing sends: this file claims and records itself
  await db.query(
    `INSERT INTO dispatcher.webhooks (id, business_id, mode, url, events, status, is_default, updated_at, sealed_signing_key)
     VALUES ('wh.r', 'bus.r', 'test', 'http://127.0.0.1:9/r', '["*"]', 'enabled', false, now(), 'v1:sealed-r')`,
  );
});
afterAll(async () => {
  await h.stop();
});

/** A stored notification, claimed as the worker would have it. */
async function claimedNotification() {
  n += 1;
  const event = {
    id: `evt.rec${n}`,
    businessId: "bus.r",
    mode: "test",
    kind: "card.transaction.created",
    resourceId: `res.rec${n}`,
    envelope: "{}",
    policy: "notification" as const,
    answerBy: null,
  };
  const stored = await insertEventsWithDeliveries(db, [{ event, webhookIds: ["wh.r"] }], ROOM);
  return stored.claimed[0]!;
}

const outcome = (deliveryId: string, eventId: string): AttemptOutcome => ({
  deliveryId,
  eventId,
  businessId: "bus.r",
  mode: "test",
  attemptNo: 1,
  trigger: "initial",
  url: "http://127.0.0.1:9/r",
  startedAt: new Date(),
  httpStatus: 200,
  latencyMs: 3,
  responseExcerpt: "ok",
  error: null,
});

const stateOf = async (eventId: string) =>
  (
    await db.query<{ delivery: string; event: string; attempts: number }>(
      `SELECT d.status AS delivery, e.status AS event, (SELECT count(*)::int FROM dispatcher.attempts a WHERE a.event_id = e.id) AS attempts
         FROM dispatcher.deliveries d JOIN dispatcher.events e ON e.id = d.event_id WHERE e.id = $1`,
      [eventId],
    )
  ).rows[0];

describe("attempt records written together", () => {
  it("records every attempt given at once, each with its delivery's next step and its event's status", async () => {
    const recorder = createAttemptRecorder(db, pino({ level: "silent" }));
    const claimed = await Promise.all(Array.from({ length: 12 }, () => claimedNotification()));
    const retryAt = new Date(Date.now() + 60_000);
    await Promise.all(
      claimed.map((c, i) => {
        const next: NextStep = i % 2 === 0 ? { status: "delivered" } : { status: "pending", at: retryAt };
        return recorder.record([{ attempt: outcome(c.id, c.event_id), next }]);
      }),
    );
    for (const [i, c] of claimed.entries()) {
      const status = i % 2 === 0 ? "delivered" : "pending";
      expect(await stateOf(c.event_id)).toEqual({ delivery: status, event: status, attempts: 1 });
    }
  });

  it("a record that cannot be written fails alone; the others in its batch are written", async () => {
    const recorder = createAttemptRecorder(db, pino({ level: "silent" }));
    const [first, good, bad] = await Promise.all([claimedNotification(), claimedNotification(), claimedNotification()]);
    // The three calls come within the linger and go out in one group; its statement fails, and each is written alone.
    const results = await Promise.allSettled([
      recorder.record([{ attempt: outcome(first!.id, first!.event_id), next: { status: "delivered" } }]),
      recorder.record([{ attempt: outcome(good!.id, good!.event_id), next: { status: "delivered" } }]),
      // A status the deliveries table refuses: the whole batch's statement fails.
      recorder.record([{ attempt: outcome(bad!.id, bad!.event_id), next: { status: "bogus" } as unknown as NextStep }]),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(await stateOf(good!.event_id)).toEqual({ delivery: "delivered", event: "delivered", attempts: 1 });
    expect(await stateOf(bad!.event_id)).toMatchObject({ delivery: "delivering", attempts: 0 });
  });

  it("the attempts given in one call are written together or not at all", async () => {
    const recorder = createAttemptRecorder(db, pino({ level: "silent" }));
    const [first, alone, inUnit, badInUnit] = await Promise.all(Array.from({ length: 4 }, () => claimedNotification()));
    const delivered = (c: typeof first) =>
      ({ attempt: outcome(c!.id, c!.event_id), next: { status: "delivered" } }) as const;
    // The three calls come within the linger and go out in one group; its statement fails, and each call is written
    // again on its own: the unit with the bad attempt fails whole.
    const results = await Promise.allSettled([
      recorder.record([delivered(first)]),
      recorder.record([delivered(alone)]),
      recorder.record([
        delivered(inUnit),
        { attempt: outcome(badInUnit!.id, badInUnit!.event_id), next: { status: "bogus" } as unknown as NextStep },
      ]),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(await stateOf(alone!.event_id)).toEqual({ delivery: "delivered", event: "delivered", attempts: 1 });
    expect(await stateOf(inUnit!.event_id)).toMatchObject({ delivery: "delivering", attempts: 0 });
    expect(await stateOf(badInUnit!.event_id)).toMatchObject({ delivery: "delivering", attempts: 0 });
  });
});
