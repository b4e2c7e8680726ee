import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, createBusiness } from "../support/api-client";
import { eventually } from "../support/eventually";
import { FakeReceiver } from "../support/fake-receiver";
import { untilDispatcherRoutesTo } from "./support/dispatcher-routing";
import { createScratchDatabase, DATABASE_URL, HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";
import { OtlpCollector } from "./support/otlp-collector";
import { startPlatform, type Platform } from "./support/service-processes";
import { ADA_OBI } from "../support/card-holder";

const traceIdOf = (traceparent: unknown) => String(traceparent).split("-")[1];

/**
 * One capture is one trace across the six processes: the services export OTLP/HTTP JSON to a collector this test runs,
 * and the receiver sees the trace in each delivery's `traceparent`.
 */
describe.skipIf(!HAS_INFRASTRUCTURE)("one trace per payment, distributed", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: Platform;
  let db: pg.Client;
  let key = "";
  let card = "";
  const receiver = new FakeReceiver();
  const collector = new OtlpCollector();
  const api = apiClient(
    () => platform.gatewayUrl,
    () => key,
  );

  beforeAll(async () => {
    receiver.answerWith((req) =>
      req.json?.event === "card.authorization.request"
        ? { status: 200, body: { action: "approve" } }
        : { status: 200, body: { code: "success" } },
    );
    await receiver.start();
    await collector.start();
    database = await createScratchDatabase(DATABASE_URL!);
    platform = await startPlatform(database.url, KAFKA_BROKERS!, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    key = (
      await createBusiness(platform.gatewayUrl, platform.operatorToken, {
        name: "Traces Ltd",
        webhookUrl: receiver.url,
        signingKey: "tracing-it-signing-key-0123456789",
      })
    ).testKey;
    const customer = await api("POST", "/customers", ADA_OBI);
    const account = await eventually(async () => {
      const list = await api("GET", "/accounts?filter=currency:NGN");
      expect(list.body.data).toHaveLength(1);
      return list.body.data[0];
    }, 30_000);
    await api("POST", "/simulation/payments/pay-in", {
      accountNumber: account.depositChannels[0].accountNumber,
      amount: 1_000_000,
      reference: "funding-1",
    });
    const program = await api("POST", "/card-programs", {
      name: "Virtual NGN",
      network: "verve",
      type: "virtual",
      currency: "NGN",
    });
    // The engine learns the customer from customers.v1: retry until it has.
    const issued = await eventually(async () => {
      const reply = await api("POST", "/cards", {
        program: program.body.data.id,
        customer: customer.body.data.id,
        reference: "card-1",
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return reply;
    }, 30_000);
    card = issued.body.data.id;
    const secrets = await api("GET", `/cards/${card}/secrets`);
    await api("POST", `/cards/${card}/activate`, { cvv: secrets.body.data.cvv, pin: "2468" });
    await untilDispatcherRoutesTo(db, receiver.url);
    // A first capture opens the engine's connection to the dispatcher and warms both, so the traced one below
    // measures the way events take, not a cold start's (a post slower than its limit falls back to events.v1).
    await api("POST", `/simulation/cards/${card}/request-authorization/capture`, { amount: 100, channel: "online" });
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await platform?.stop();
    await database?.drop();
    await receiver.stop();
    await collector.stop();
  });

  it("a capture: gateway → engine → events posted to the dispatcher → receiver → the answer posted back, one trace id", async () => {
    const reply = await api("POST", `/simulation/cards/${card}/request-authorization/capture`, {
      amount: 50_000,
      channel: "online",
    });
    expect(reply.body).toMatchObject({ data: { status: "approved" } });
    const id = reply.body.data.id;
    const deliveries = await eventually(() => {
      const got = receiver.received.filter((r) => r.json?.data?.id === id || r.json?.data?.authorization === id);
      expect(got.map((r) => r.json.event)).toEqual(
        expect.arrayContaining(["card.authorization.request", "card.authorization.closed", "card.transaction.created"]),
      );
      return got;
    });
    const traceIds = new Set(deliveries.map((r) => traceIdOf(r.headers.traceparent)));
    expect(traceIds.size).toBe(1);
    const [traceId] = [...traceIds] as [string];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    await eventually(() => {
      const spans = collector.inTrace(traceId);
      const names = (service: string) => spans.filter((s) => s.service === service).map((s) => s.name);
      // The gateway's server span is the root: the simulation request started the trace.
      const roots = spans.filter((s) => !s.parentSpanId);
      expect(roots.map((s) => `${s.service} ${s.name}`)).toEqual([expect.stringMatching(/^api-gateway POST/)]);
      expect(names("api-gateway")).toEqual(expect.arrayContaining([expect.stringMatching(/^POST/)]));
      // The events went straight to the dispatcher (the engine's direct lane), not on events.v1; the answer came
      // straight back to the engine that asked (answerTo), not on decisions.v1.
      expect(names("authorization-engine")).toEqual(
        expect.arrayContaining([expect.stringMatching(/^POST \/simulation/), "POST /internal/decision-answers"]),
      );
      expect(names("authorization-engine")).not.toContain("send events.v1");
      expect(names("authorization-engine")).not.toContain("process decisions.v1");
      expect(names("event-dispatcher")).toEqual(
        expect.arrayContaining(["POST /internal/events", "deliver decision", "deliver notification"]),
      );
      expect(names("event-dispatcher")).not.toContain("process events.v1");
      expect(names("event-dispatcher")).not.toContain("send decisions.v1");
      // Every span's parent is in the same trace: nothing was cut between the processes.
      const ids = new Set(spans.map((s) => s.spanId));
      for (const s of spans) if (s.parentSpanId) expect(ids, `${s.service} ${s.name}`).toContain(s.parentSpanId);
      // The receiver's request came from a span of the dispatcher's.
      const delivered = spans.filter((s) => s.service === "event-dispatcher").map((s) => s.spanId);
      for (const r of deliveries) expect(delivered).toContain(String(r.headers.traceparent).split("-")[2]);
    }, 20_000);
  });
});
