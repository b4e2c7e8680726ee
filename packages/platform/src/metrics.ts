import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
}

/**
 * How often the process metrics' event-loop delay histogram (nodejs_eventloop_lag_*) samples the loop. prom-client's
 * default, 10 ms, is a timer that wakes an idle process 100 times a second: ~3–5 ms of CPU a second per process here,
 * about half of what an idle service burns, six times over in the distributed mode. Every 100 ms, a stall of 100 ms or
 * more always shows, and a shorter one in proportion to its length.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** One Prometheus registry per service, so in the all-in-one process each service's numbers stay apart. */
export function createMetrics(service: string, withProcessMetrics = true): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (withProcessMetrics)
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const httpRequests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests handled",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, httpRequests, httpDuration };
}
