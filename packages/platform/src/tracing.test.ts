import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import express from "express";
import { listen, type Listening } from "./lifecycle";
import type { Tracing } from "./tracing";
import { startTracingSdk } from "./tracing-sdk";

/**
 * Express, pg and http are imported (ESM) before the SDK starts, as in a service's bundle: their spans must still
 * come, children of the request's server span.
 */
describe("tracing on, modules imported before the SDK started", () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let database: TestDatabase;
  let http: Listening;

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 2 });
    tracing = startTracingSdk("test-service", { spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const app = express();
    app.use(express.json());
    app.get("/things/:id", async (_req, res) => {
      const { rows } = await database.db.query<{ n: number }>("SELECT 1 AS n");
      res.json(rows[0]);
    });
    http = await listen(app, 0);
  });
  afterAll(async () => {
    await http?.close();
    await database?.stop();
    await tracing?.stop();
  });

  it("a request is one trace: server span, express route (no middleware spans), pg query; probes are not traced", async () => {
    expect(await (await fetch(`${http.url}/things/1`)).json()).toEqual({ n: 1 });
    await fetch(`${http.url}/ready`);
    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(server.name).toBe("GET /things/:id");
    expect(server.resource.attributes["service.name"]).toBe("test-service");
    const inTrace = spans.filter((s) => s.spanContext().traceId === server.spanContext().traceId);
    expect(inTrace.map((s) => s.instrumentationScope.name)).toEqual(
      expect.arrayContaining(["@opentelemetry/instrumentation-express", "@opentelemetry/instrumentation-pg"]),
    );
    expect(spans.filter((s) => s.kind === SpanKind.SERVER)).toHaveLength(1);
    expect(spans.map((s) => s.name)).not.toContain("middleware - jsonParser");
  });
});
