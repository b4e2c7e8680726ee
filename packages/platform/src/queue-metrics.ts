import { Gauge, type GaugeConfiguration, type Registry } from "prom-client";
import { readOutboxBacklog, type Bus } from "@cardhold/bus";
import type { Db } from "@cardhold/db";

export interface ScrapeReadOptions {
  /** A scrape waits this long for a read; past it the last good value stands (the read goes on). */
  timeoutMs?: number;
}

/**
 * A read for gauges computed on scrape (a bounded database query): at most one under way, shared by the gauges that
 * ask meanwhile (a scrape collects every gauge at once, so they share one read). A read that fails or is slow
 * (database down, pool exhausted) never fails the scrape: the caller gets the last good value, undefined before the
 * first.
 */
export function scrapeRead<T>(read: () => Promise<T>, opts: ScrapeReadOptions = {}): () => Promise<T | undefined> {
  const timeoutMs = opts.timeoutMs ?? 1_000;
  let last: { value: T } | undefined;
  let running: Promise<void> | undefined;
  const refresh = () =>
    (running ??= read()
      .then((value) => {
        last = { value };
      })
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      }));
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([refresh(), timeout]);
    clearTimeout(timer);
    return last?.value;
  };
}

/**
 * The registry's gauge of this name, created if it has none yet: a service created twice on one registry (a test with
 * two configurations of it) keeps the first one's gauges instead of failing on a duplicate name.
 */
function gaugeOnce<L extends string>(registry: Registry, config: GaugeConfiguration<L>): void {
  if (!registry.getSingleMetric(config.name)) new Gauge({ ...config, registers: [registry] });
}

/** A gauge without labels set on scrape from a reading (see scrapeRead); an undefined reading leaves its last value. */
export function scrapedGauge<T>(
  registry: Registry,
  name: string,
  help: string,
  reading: () => Promise<T | undefined>,
  pick: (value: T) => number,
): void {
  gaugeOnce(registry, {
    name,
    help,
    async collect() {
      const value = await reading();
      if (value !== undefined) this.set(pick(value));
    },
  });
}

/** The outbox of the service's schema: rows waiting to be published, and how long the oldest has waited. */
export function registerOutboxGauges(registry: Registry, db: Db, schema: string): void {
  const backlog = scrapeRead(() => readOutboxBacklog(db, schema));
  scrapedGauge(
    registry,
    "outbox_backlog_messages",
    "Rows in this service's outbox not yet published and deleted (capped at 100000)",
    backlog,
    (b) => b.messages,
  );
  scrapedGauge(
    registry,
    "outbox_oldest_message_age_seconds",
    "Age of the oldest row in this service's outbox; 0 when it is empty",
    backlog,
    (b) => b.oldestAgeSeconds,
  );
}

/** A consumer group belongs to the service it is named after (`<service>` or `<service>.<what it consumes>`). */
const belongsTo = (group: string, service: string) => group === service || group.startsWith(`${service}.`);

/**
 * The service's consumer groups' lag per topic, as the bus last read it (no I/O on a scrape). In the all-in-one
 * process every service shares one bus: each reports only its own groups.
 */
export function registerConsumerLagGauges(registry: Registry, bus: Bus, service: string): void {
  const registeredAt = Date.now();
  gaugeOnce(registry, {
    name: "consumer_lag_messages",
    help: "Messages on the topic not yet handled by the consumer group (Kafka: latest minus committed offsets)",
    labelNames: ["group", "topic"] as const,
    collect() {
      this.reset();
      for (const { group, topic, messages } of bus.consumerLag().lags) {
        if (belongsTo(group, service)) this.set({ group, topic }, messages);
      }
    },
  });
  gaugeOnce(registry, {
    name: "consumer_lag_reading_age_seconds",
    help: "How old consumer_lag_messages is (since the service started, before a first reading): it grows while the broker cannot be read",
    collect() {
      const readAt = bus.consumerLag().readAt ?? registeredAt;
      this.set(Math.max(0, (Date.now() - readAt) / 1_000));
    },
  });
}

/** The queue gauges every service with an outbox and consumers exposes (docs/operations/metrics.md). */
export function registerMessagingGauges(
  deps: { db: Db; bus: Bus; metrics: { registry: Registry } },
  service: string,
  schema: string,
): void {
  registerOutboxGauges(deps.metrics.registry, deps.db, schema);
  registerConsumerLagGauges(deps.metrics.registry, deps.bus, service);
}
