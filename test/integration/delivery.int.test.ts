import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventMessage } from "../support/event-message";
import { eventually } from "../support/eventually";
import { FakeReceiver } from "../support/fake-receiver";
import { createScratchDatabase, DATABASE_URL, HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";
import { startPlatform, type Platform } from "./support/service-processes";
import { produce, readTopic, type TopicReader } from "./support/topic-reader";

describe.skipIf(!HAS_INFRASTRUCTURE)("event delivery against real Kafka and PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: Platform;
  let db: pg.Client;
  let decisions: TopicReader;
  const receiver = new FakeReceiver();
  let businessId: string;
  let testKey: string;

  const event = (kind: string, data: Record<string, unknown>) => eventMessage(businessId, kind, data);
  const distinctDelivered = (ids: string[]) => ids.filter((id) => receiver.byEvent(id).some(() => true)).length;

  beforeAll(async () => {
    await receiver.start();
    database = await createScratchDatabase(DATABASE_URL!);
    platform = await startPlatform(database.url, KAFKA_BROKERS!);
    await platform.restart("event-dispatcher", {
      DISPATCHER_RETRY_DELAYS_MS: "300,600,1000",
      DISPATCHER_CLAIM_MS: "5000",
    });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    decisions = await readTopic(KAFKA_BROKERS!, "decisions.v1");
    const res = await fetch(`${platform.gatewayUrl}/admin/businesses`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-operator-token": platform.operatorToken },
      body: JSON.stringify({
        name: "Delivery Ltd",
        webhookUrl: receiver.url,
        signingKey: "delivery-signing-key-0123456789",
      }),
    });
    const body = (await res.json()) as { data: { business: { id: string }; testKey: string } };
    businessId = body.data.business.id;
    testKey = body.data.testKey;
    // The default webhook travels gateway → businesses.v1 → registry → webhooks.v1 → dispatcher.
    await eventually(async () => {
      const { rowCount } = await db.query(
        "SELECT 1 FROM dispatcher.webhooks WHERE business_id = $1 AND mode = 'test'",
        [businessId],
      );
      expect(rowCount).toBe(1);
    }, 30_000);
  });

  afterAll(async () => {
    await decisions?.stop();
    await db?.end();
    await platform?.stop();
    await database?.drop();
    await receiver.stop();
  });

  it("delivers signed events and keeps retrying a receiver that fails, times out and then recovers", async () => {
    let phase: "failing" | "slow" | "ok" = "failing";
    receiver.answerWith(() =>
      phase === "failing" ? { status: 500 } : phase === "slow" ? { status: 200, delayMs: 12_000 } : { status: 200 },
    );
    const batch = Array.from({ length: 10 }, (_, i) => event("card.authorization.closed", { status: "approved", i }));
    await produce(KAFKA_BROKERS!, "events.v1", batch);
    await eventually(() => expect(batch.every((e) => receiver.byEvent(e.eventId).length >= 1)).toBe(true), 30_000);
    phase = "slow";
    await new Promise((r) => setTimeout(r, 1_500));
    phase = "ok";
    await eventually(async () => {
      const { rows } = await db.query(
        "SELECT count(*)::int AS n FROM dispatcher.events WHERE id = ANY($1) AND status = 'delivered'",
        [batch.map((e) => e.eventId)],
      );
      expect(rows[0].n).toBe(10);
    }, 90_000);
    const res = await fetch(`${platform.gatewayUrl}/events/${batch[0]!.eventId}`, {
      headers: { authorization: `Bearer ${testKey}` },
    });
    const detail = (await res.json()) as any;
    expect(detail.data.deliveries[0].attempts[0]).toMatchObject({ httpStatus: 500, trigger: "initial" });
    expect(detail.data.deliveries[0].attempts.at(-1)).toMatchObject({ httpStatus: 200 });
  });

  it("answers a decision event through decisions.v1", async () => {
    receiver.answerWith({ status: 200, body: { action: "decline", code: "insufficient-funds" } });
    const decision = event("card.authorization.request", { type: "capture", status: "pending" });
    await produce(KAFKA_BROKERS!, "events.v1", [decision]);
    await eventually(() => expect(decisions.byKey(decision.key)).toHaveLength(1), 30_000);
    expect(decisions.byKey(decision.key)[0]).toMatchObject({
      data: { eventId: decision.eventId, httpStatus: 200, body: { action: "decline", code: "insufficient-funds" } },
    });
  });

  it("a dispatcher killed with SIGKILL mid-delivery loses nothing and repeats only what was in flight", async () => {
    receiver.answerWith({ status: 200, delayMs: 400 });
    const batch = Array.from({ length: 60 }, (_, i) => event("card.transaction.created", { i }));
    await produce(KAFKA_BROKERS!, "events.v1", batch);
    const ids = batch.map((e) => e.eventId);
    await eventually(() => expect(distinctDelivered(ids)).toBeGreaterThanOrEqual(5), 30_000);
    await platform.processes.get("event-dispatcher")!.kill("SIGKILL");
    const deliveredBeforeKill = distinctDelivered(ids);
    expect(deliveredBeforeKill).toBeLessThan(60);
    await platform.restart("event-dispatcher", {
      DISPATCHER_RETRY_DELAYS_MS: "300,600,1000",
      DISPATCHER_CLAIM_MS: "5000",
    });
    await eventually(() => expect(distinctDelivered(ids)).toBe(60), 90_000);
    const total = ids.reduce((n, id) => n + receiver.byEvent(id).length, 0);
    // Only deliveries that were in flight at the kill may arrive twice; at most one batch of in-flight sends.
    expect(total - 60).toBeLessThanOrEqual(64);
    await eventually(async () => {
      const { rows } = await db.query(
        "SELECT count(*)::int AS n FROM dispatcher.events WHERE id = ANY($1) AND status = 'delivered'",
        [ids],
      );
      expect(rows[0].n).toBe(60);
    }, 30_000);
  });
});
