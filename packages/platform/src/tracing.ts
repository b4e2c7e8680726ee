/**
 * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only variant) is set: then the SDK is
 * loaded (a chunk of its own, never loaded when off) and started before the service opens its pools and listens.
 */
export interface Tracing {
  /** Exports what is left and stops the SDK. */
  stop(): Promise<void>;
}

export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Starts tracing for `serviceName` (OTEL_SERVICE_NAME overrides it) when wanted; undefined when off. */
export async function startTracing(serviceName: string): Promise<Tracing | undefined> {
  if (!tracingWanted()) return undefined;
  const { startTracingSdk } = await import("./tracing-sdk");
  return startTracingSdk(serviceName);
}
