import { describe, expect, it } from "vitest";
import { trace } from "@opentelemetry/api";
import { activeTraceHeaders, outboxInsert } from "@cardhold/bus";
import { startTracing, tracingWanted } from "./tracing";

describe("tracing without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("starts no SDK: spans do not record and outbox rows carry no trace context", async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    expect(await startTracing("customer-service")).toBeUndefined();
    const span = trace.getTracer("test").startSpan("request");
    expect(span.isRecording()).toBe(false);
    await trace.getTracer("test").startActiveSpan("request", async (active) => {
      expect(activeTraceHeaders()).toEqual({});
      expect(outboxInsert("svc", [{ topic: "t", key: "k", value: 1 }]).rows[0]!.headers).toEqual({});
      active.end();
    });
  });

  it("is wanted once either endpoint variable is set", () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
  });
});
