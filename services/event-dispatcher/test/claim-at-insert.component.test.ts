import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@cardhold/db";
import { insertEventsWithDeliveries, type InsertClaim, type RoutedEvent } from "../src/store/events.store";
import { startStoppedDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
let db: Db;
let n = 0;

beforeAll(async () => {
  h = await startStoppedDispatcher(["wh.a", "wh.b"]);
  db = h.pg.db;
});
afterAll(async () => {
  await h.stop();
});

const ROOM: InsertClaim = {
  limit: 64,
  notifications: 48,
  claimMs: 30_000,
  perWebhookDecisions: 32,
  perWebhookNotifications: 8,
  busy: [],
  chain: 4,
};

function event(resourceId: string, policy: "decision" | "notification", webhookIds = ["wh.a"]): RoutedEvent {
  n += 1;
  return {
    event: {
      id: `evt.claim${n}`,
      businessId: "bus.1",
      mode: "test",
      kind: policy === "decision" ? "card.authorization.request" : "card.authorization.closed",
      resourceId,
      envelope: `{"n":${n}}`,
      policy,
      answerBy: policy === "decision" ? new Date(Date.now() + 4_000) : null,
    },
    webhookIds,
  };
}

const statusOf = async (eventId: string, webhookId = "wh.a") =>
  (
    await db.query<{ status: string }>(
      "SELECT status FROM dispatcher.deliveries WHERE event_id = $1 AND webhook_id = $2",
      [eventId, webhookId],
    )
  ).rows[0]?.status;

describe("deliveries claimed as they are stored", () => {
  it("claims the first of a resource with what the worker needs to send it; the next of that resource waits", async () => {
    const request = event("auth.1", "decision");
    const closed = event("auth.1", "notification");
    const stored = await insertEventsWithDeliveries(db, [request, closed], ROOM);
    expect(stored.claimed).toHaveLength(1);
    expect(stored.pending).toBe(1);
    expect(stored.claimed[0]).toMatchObject({
      event_id: request.event.id,
      webhook_id: "wh.a",
      policy: "decision",
      attempts: 1,
      trigger: "initial",
      url: "http://127.0.0.1:9/wh.a",
      sealed_signing_key: "v1:sealed-wh.a",
      envelope: request.event.envelope,
      event_deliveries: 1,
    });
    expect(stored.claimed[0]!.answer_by).toEqual(request.event.answerBy);
    expect(await statusOf(request.event.id)).toBe("delivering");
    expect(await statusOf(closed.event.id)).toBe("pending");
  });

  it("does not claim behind an unfinished delivery of the same resource from an earlier batch", async () => {
    const later = event("auth.1", "notification");
    const other = event("auth.2", "notification");
    const stored = await insertEventsWithDeliveries(db, [later, other], ROOM);
    expect(stored.claimed.map((c) => c.event_id)).toEqual([other.event.id]);
    expect(await statusOf(later.event.id)).toBe("pending");
  });

  it("claims no more than the worker's room: in all, for notifications, and per webhook; decisions first", async () => {
    const notifications = [1, 2, 3].map((i) => event(`res.n${i}`, "notification"));
    const decisions = [1, 2, 3].map((i) => event(`res.d${i}`, "decision"));
    const room = { ...ROOM, limit: 4, notifications: 1, busy: [{ webhookId: "wh.a", policy: "decision", room: 2 }] };
    const stored = await insertEventsWithDeliveries(db, [...notifications, ...decisions], room);
    expect(stored.claimed.map((c) => c.event_id)).toEqual([
      decisions[0]!.event.id,
      decisions[1]!.event.id,
      notifications[0]!.event.id,
    ]);
    expect(stored.pending).toBe(3);
  });

  it("claims nothing without room, and an event stored again changes nothing", async () => {
    const first = event("res.x", "notification", ["wh.a", "wh.b"]);
    const none = await insertEventsWithDeliveries(db, [first], { ...ROOM, limit: 0, notifications: 0 });
    expect(none).toMatchObject({ claimed: [], pending: 2 });
    expect(none.inserted).toEqual(new Set([first.event.id]));
    const again = await insertEventsWithDeliveries(db, [first], ROOM);
    expect(again).toMatchObject({ claimed: [], pending: 0 });
    expect(again.inserted.size).toBe(0);
  });

  it("claims a resource's notifications in the batch together, in order, up to the chain's length", async () => {
    const closed = event("auth.chain", "notification");
    const transaction = event("auth.chain", "notification");
    const third = event("auth.chain", "notification");
    const other = event("auth.other", "notification");
    const stored = await insertEventsWithDeliveries(db, [closed, other, transaction, third], { ...ROOM, chain: 2 });
    expect(stored.claimed.map((c) => c.event_id)).toEqual([closed.event.id, other.event.id, transaction.event.id]);
    expect(stored.pending).toBe(1);
    expect(await statusOf(third.event.id)).toBe("pending");
  });

  it("chains nothing behind a decision, nor past the notifications' room", async () => {
    const request = event("auth.mixed", "decision");
    const after = event("auth.mixed", "notification");
    const mixed = await insertEventsWithDeliveries(db, [request, after], ROOM);
    expect(mixed.claimed.map((c) => c.event_id)).toEqual([request.event.id]);
    const first = event("auth.room", "notification");
    const second = event("auth.room", "notification");
    const tight = await insertEventsWithDeliveries(db, [first, second], { ...ROOM, notifications: 1 });
    expect(tight.claimed.map((c) => c.event_id)).toEqual([first.event.id]);
    expect(await statusOf(second.event.id)).toBe("pending");
  });

  it("an event going to two webhooks is claimed for each, and says so", async () => {
    const both = event("res.y", "notification", ["wh.a", "wh.b"]);
    const stored = await insertEventsWithDeliveries(db, [both], ROOM);
    expect(stored.claimed.map((c) => [c.webhook_id, c.event_deliveries]).sort()).toEqual([
      ["wh.a", 2],
      ["wh.b", 2],
    ]);
  });

  /** Stores `events` in a transaction left open until `commit()` is called; resolves once they are stored. */
  const storedAndHeldOpen = async (events: Parameters<typeof insertEventsWithDeliveries>[1]) => {
    let stored!: () => void;
    let commit!: () => void;
    const storedInTx = new Promise<void>((resolve) => (stored = resolve));
    const released = new Promise<void>((resolve) => (commit = resolve));
    const result = db.tx(async (tx) => {
      const inserted = await insertEventsWithDeliveries(tx, events, ROOM);
      stored();
      await released;
      return inserted;
    });
    await storedInTx;
    return { result, commit };
  };

  it("two dispatchers storing one resource's events at once (a stale consumer after a rebalance): the later waits and is not claimed", async () => {
    const approved = event("auth.race", "notification");
    const declined = event("auth.race", "notification");
    const { result: first, commit } = await storedAndHeldOpen([approved]);
    let secondDone = false;
    const second = insertEventsWithDeliveries(db, [approved, declined], ROOM).finally(() => (secondDone = true));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(secondDone).toBe(false);
    commit();
    expect((await first).claimed.map((c) => c.event_id)).toEqual([approved.event.id]);
    const late = await second;
    expect(late.claimed).toEqual([]);
    expect(late.inserted).toEqual(new Set([declined.event.id]));
    expect(await statusOf(declined.event.id)).toBe("pending");
  });

  it("a store of another event of a resource whose first store is still open waits for its commit, then leaves it pending", async () => {
    const first = event("auth.race2", "notification");
    const second = event("auth.race2", "notification");
    const { result: open, commit } = await storedAndHeldOpen([first]);
    let secondDone = false;
    const later = insertEventsWithDeliveries(db, [second], ROOM).finally(() => (secondDone = true));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(secondDone).toBe(false);
    commit();
    await open;
    expect((await later).claimed).toEqual([]);
    expect(await statusOf(second.event.id)).toBe("pending");
  });
});
