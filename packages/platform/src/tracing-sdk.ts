import { createRequire, syncBuiltinESMExports } from "node:module";
import { NodeSDK } from "@opentelemetry/sdk-node";
import type { IncomingMessage } from "node:http";
import {
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { samplerRatio, type Tracing } from "./tracing";

/** Probes and scrapes are not traced: they would be most of the traces. */
const UNTRACED_PATHS = new Set(["/ready", "/health", "/live", "/metrics"]);

const untraced = (req: IncomingMessage) => UNTRACED_PATHS.has((req.url ?? "").split("?")[0]!);

/**
 * The instrumentations patch modules through require hooks, but the services are ESM (bundled, their npm packages
 * imported from node_modules) and import express, pg and kafkajs before any code of theirs runs. The patches these
 * instrumentations make are to the modules' exports and prototypes, so requiring the modules once more after the SDK
 * started (the hook sees the first require through it) patches the very objects the ESM imports hold. Node's own
 * http's named ESM exports are then synced with the patched ones. Kafka spans are made in @cardhold/bus.
 */
const PATCHED_BY_REQUIRE = ["http", "https", "express", "pg", "pg-pool"];

function patchLoadedModules(): void {
  const require = createRequire(import.meta.url);
  for (const name of PATCHED_BY_REQUIRE) require(name);
  syncBuiltinESMExports();
}

/**
 * Parent-based with a trace-id ratio (OTEL_TRACES_SAMPLER_ARG, 0 to 1, default 1): a payment's trace is kept or
 * dropped whole, decided where it starts. Undefined when OTEL_TRACES_SAMPLER names a sampler: the SDK then builds it.
 */
export function samplerFor(env: NodeJS.ProcessEnv): Sampler | undefined {
  const ratio = samplerRatio(env);
  return ratio === undefined ? undefined : new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
}

export interface TracingSdkOptions {
  /** Instead of the OTLP exporter the environment configures (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

export function startTracingSdk(serviceName: string, opts: TracingSdkOptions = {}): Tracing {
  const env = process.env;
  // Traces only: metrics stay on /metrics (Prometheus) and logs on stdout unless these say otherwise.
  env.OTEL_METRICS_EXPORTER ??= "none";
  env.OTEL_LOGS_EXPORTER ??= "none";
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
    sampler: samplerFor(env),
    spanProcessors: opts.spanProcessors,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: untraced }),
      // Route handlers only: the shared middleware (body parser, guards) would be ten spans per request.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  patchLoadedModules();
  return { stop: () => sdk.shutdown() };
}
