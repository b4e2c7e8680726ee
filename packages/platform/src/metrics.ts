import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
}

/** One Prometheus registry per service, so in the all-in-one process each service's numbers stay apart. */
export function createMetrics(service: string, withProcessMetrics = true): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (withProcessMetrics) collectDefaultMetrics({ register: registry });
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
