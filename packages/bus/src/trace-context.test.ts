import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { context, propagation, SpanKind, trace } from "@opentelemetry/api";
import { node, tracing } from "@opentelemetry/sdk-node";
import { pino } from "pino";
import type { Db } from "@cardhold/db";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createMemoryBus } from "./memory-bus";
import { migrateMessaging } from "./messaging-tables";
import { createOutboxRelay, enqueue } from "./outbox";
import { createTraceContexts } from "./trace-context";

const logger = pino({ level: "silent" });
const exporter = new tracing.InMemorySpanExporter();
const tracer = () => trace.getTracer("test");
let server: TestDatabase;
let db: Db;

beforeAll(async () => {
  new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] }).register();
  server = await createTestDatabase();
  db = server.db;
  await migrateMessaging(db, "traced");
});
afterAll(async () => {
  await server.stop();
  trace.disable();
  context.disable();
  propagation.disable();
});

const spanNamed = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name)!;

describe("trace context through the outbox", () => {
  it("a row written in a span carries its traceparent; the consumer handles it in a child of the send span", async () => {
    const bus = createMemoryBus();
    const seen: { traceId?: string; headers: Record<string, string> }[] = [];
    await bus.subscribe({
      group: "g",
      topics: ["things.v1"],
      handler: async (m) =>
        void seen.push({ traceId: trace.getActiveSpan()?.spanContext().traceId, headers: m.headers }),
    });
    const request = tracer().startSpan("request");
    await context.with(trace.setSpan(context.active(), request), () =>
      db.tx((tx) => enqueue(tx, "traced", [{ topic: "things.v1", key: "a", value: { n: 1 } }])),
    );
    request.end();
    const { traceId, spanId } = request.spanContext();
    const { rows } = await db.query<{ headers: Record<string, string> }>("SELECT headers FROM traced.outbox");
    expect(rows[0]!.headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);

    const relay = createOutboxRelay({ db, schema: "traced", bus, logger, idleMs: 20 });
    relay.start();
    await waitFor(() => seen.length === 1);
    await relay.stop();

    const send = spanNamed("send things.v1");
    const process = spanNamed("process things.v1");
    expect(send.kind).toBe(SpanKind.PRODUCER);
    expect(send.parentSpanContext?.spanId).toBe(spanId);
    expect(process.kind).toBe(SpanKind.CONSUMER);
    expect(process.parentSpanContext?.spanId).toBe(send.spanContext().spanId);
    expect(process.attributes["messaging.consumer.group.name"]).toBe("g");
    expect(seen[0]!.traceId).toBe(traceId);
    expect(seen[0]!.headers.traceparent).toBe(`00-${traceId}-${send.spanContext().spanId}-01`);
  });

  it("a row written outside any span carries no trace context and its handling starts no span", async () => {
    exporter.reset();
    const bus = createMemoryBus();
    const seen: Record<string, string>[] = [];
    await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void seen.push(m.headers) });
    await db.tx((tx) => enqueue(tx, "traced", [{ topic: "things.v1", key: "b", value: { n: 2 } }]));
    const relay = createOutboxRelay({ db, schema: "traced", bus, logger, idleMs: 20 });
    relay.start();
    await waitFor(() => seen.length === 1);
    await relay.stop();
    expect(seen[0]!.traceparent).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("a batch is handled in a span that continues the first message's trace and links the others", async () => {
    exporter.reset();
    const bus = createMemoryBus();
    let handled = 0;
    await bus.subscribe({
      group: "b",
      topics: ["batch.v1"],
      batchHandler: async (list) => void (handled += list.length),
    });
    const writers = ["first", "second"].map((name) => tracer().startSpan(name));
    // Published together while the partition is busy so both reach one handler call: same key, one publish.
    const messages = writers.map((span, n) => {
      const headers: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), headers);
      return { topic: "batch.v1", key: "k", value: { n }, headers };
    });
    await bus.publish(messages);
    await waitFor(() => handled === 2);
    const process = spanNamed("process batch.v1");
    expect(process.spanContext().traceId).toBe(writers[0]!.spanContext().traceId);
    expect(process.links.map((l) => l.context.traceId)).toEqual([writers[1]!.spanContext().traceId]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("trace contexts kept for work done later", () => {
  const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  const spanOf = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);

  it("work this process remembers continues the remembered trace, ahead of a stored one", async () => {
    exporter.reset();
    const contexts = createTraceContexts();
    contexts.remember("evt.1", { traceparent });
    const other = "00-11111111111111111111111111111111-2222222222222222-01";
    await contexts.run("evt.1", "deliver", {}, async () => undefined, { traceparent: other });
    expect(spanOf("deliver")[0]!.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
  });

  it("work it forgot (or another process claimed) continues the traceparent stored with it", async () => {
    exporter.reset();
    const contexts = createTraceContexts();
    await contexts.run("evt.2", "deliver", {}, async () => undefined, { traceparent });
    const [deliver] = spanOf("deliver");
    expect(deliver!.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(deliver!.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
  });

  it("work with no trace anywhere starts no span", async () => {
    exporter.reset();
    const contexts = createTraceContexts();
    expect(await contexts.run("evt.3", "deliver", {}, async () => 7)).toBe(7);
    expect(await contexts.run("evt.3", "deliver", {}, async () => 8, {})).toBe(8);
    expect(spanOf("deliver")).toEqual([]);
  });
});
