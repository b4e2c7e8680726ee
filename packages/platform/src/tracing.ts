/**
 * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only variant) is set: then the SDK is
 * loaded (a chunk of its own, never loaded when off) and started before the service opens its pools and listens.
 */
import { ConfigError, exitOnConfigError } from "./config";

export interface Tracing {
  /** Exports what is left and stops the SDK. */
  stop(): Promise<void>;
}

export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * The share of new traces the default sampler keeps (OTEL_TRACES_SAMPLER_ARG, 0 to 1, default 1); undefined when
 * OTEL_TRACES_SAMPLER names a sampler of the SDK's.
 */
export function samplerRatio(env: NodeJS.ProcessEnv): number | undefined {
  if (env.OTEL_TRACES_SAMPLER) return undefined;
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg ? Number(arg) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new ConfigError(
      `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (the share of traces kept), not "${arg}"`,
    );
  return ratio;
}

/** Starts tracing for `serviceName` (OTEL_SERVICE_NAME overrides it) when wanted; undefined when off. */
export async function startTracing(serviceName: string): Promise<Tracing | undefined> {
  if (!tracingWanted()) return undefined;
  exitOnConfigError(() => samplerRatio(process.env));
  const { startTracingSdk } = await import("./tracing-sdk");
  return startTracingSdk(serviceName);
}
