import { describe, expect, it } from "vitest";
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from "@opentelemetry/api";
import { SamplingDecision } from "@opentelemetry/sdk-trace-base";
import { samplerFor } from "./tracing-sdk";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const decide = (env: NodeJS.ProcessEnv, parentSampled?: boolean) => {
  const parent =
    parentSampled === undefined
      ? ROOT_CONTEXT
      : trace.setSpanContext(ROOT_CONTEXT, {
          traceId: TRACE_ID,
          spanId: "00f067aa0ba902b7",
          traceFlags: parentSampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
          isRemote: true,
        });
  return samplerFor(env)!.shouldSample(parent, TRACE_ID, "POST /cards", SpanKind.SERVER, {}, []).decision;
};

describe("the trace sampler the services start with", () => {
  it.each([
    ["no setting: every trace", {}, undefined, SamplingDecision.RECORD_AND_SAMPLED],
    ["ratio 1", { OTEL_TRACES_SAMPLER_ARG: "1" }, undefined, SamplingDecision.RECORD_AND_SAMPLED],
    ["ratio 0: a new trace is dropped", { OTEL_TRACES_SAMPLER_ARG: "0" }, undefined, SamplingDecision.NOT_RECORD],
    ["ratio 0, a sampled parent: kept", { OTEL_TRACES_SAMPLER_ARG: "0" }, true, SamplingDecision.RECORD_AND_SAMPLED],
    ["ratio 1, a parent not sampled: dropped", { OTEL_TRACES_SAMPLER_ARG: "1" }, false, SamplingDecision.NOT_RECORD],
  ])("%s", (_name, env, parentSampled, decision) => {
    expect(decide(env, parentSampled)).toBe(decision);
  });

  it.each(["abc", "1.5", "-0.1"])("refuses OTEL_TRACES_SAMPLER_ARG=%s with one clear line", (arg) => {
    expect(() => samplerFor({ OTEL_TRACES_SAMPLER_ARG: arg })).toThrow(
      /OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/,
    );
  });

  it("leaves the choice to the SDK when OTEL_TRACES_SAMPLER names a sampler", () => {
    expect(samplerFor({ OTEL_TRACES_SAMPLER: "always_off", OTEL_TRACES_SAMPLER_ARG: "nonsense" })).toBeUndefined();
  });
});
