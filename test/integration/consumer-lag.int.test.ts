import { randomBytes } from "node:crypto";
import { pino } from "pino";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, type Bus } from "@cardhold/bus";
import { TOPICS } from "@cardhold/contracts";
import { registerConsumerLagGauges } from "@cardhold/platform";
import { eventually } from "../support/eventually";
import { parseSamples, sampleOf } from "../support/metrics-scrape";
import { HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";

const logger = pino({ level: "silent" });

describe.skipIf(!HAS_INFRASTRUCTURE)("consumer lag on the Kafka bus, as /metrics shows it", () => {
  const run = randomBytes(4).toString("hex");
  const service = `lag-it-${run}`;
  const group = `${service}.events`;
  const buses: Bus[] = [];
  const newBus = async () => {
    const bus = createKafkaBus({
      brokers: KAFKA_BROKERS!.split(","),
      clientId: service,
      logger,
      topics: [TOPICS.events],
      lagIntervalMs: 200,
    });
    buses.push(bus);
    await bus.start();
    return bus;
  };
  let producer: Bus;
  let consumer: Bus;
  const registry = new Registry();
  let blocked = true;
  const handled: number[] = [];

  beforeAll(async () => {
    producer = await newBus();
    consumer = await newBus();
    registerConsumerLagGauges(registry, consumer, service);
    await consumer.subscribe({
      group,
      topics: [TOPICS.events],
      handler: async (m) => {
        if (m.key !== `${run}-stuck`) return;
        while (blocked) await new Promise((r) => setTimeout(r, 20));
        handled.push((m.value as { n: number }).n);
      },
    });
  });
  afterAll(async () => {
    blocked = false;
    await Promise.all(buses.map((b) => b.stop()));
  });

  const lag = async () =>
    sampleOf(parseSamples(await registry.metrics()), "consumer_lag_messages", { group, topic: TOPICS.events });

  it("counts the messages a stuck group has not handled, then none once it catches up", async () => {
    // The new group first reads the topic from its beginning (earlier runs' messages): none left once it is through.
    await eventually(async () => expect(await lag()).toBe(0), 60_000);
    // One key, one partition: the handler holds the first message, and the other nine wait behind it.
    await producer.publish(
      Array.from({ length: 10 }, (_, n) => ({ topic: TOPICS.events, key: `${run}-stuck`, value: { n } })),
    );
    await eventually(async () => expect(await lag()).toBe(10), 30_000);
    const samples = parseSamples(await registry.metrics());
    expect(sampleOf(samples, "consumer_lag_reading_age_seconds")).toBeLessThan(2);
    blocked = false;
    await eventually(() => expect(handled).toHaveLength(10), 30_000);
    // Offsets are committed every 500 ms and lag read every 200 ms here.
    await eventually(async () => expect(await lag()).toBe(0), 10_000);
  });

  it("reports the producer's bus no group of the service (it subscribed none)", async () => {
    const other = new Registry();
    registerConsumerLagGauges(other, producer, service);
    expect(parseSamples(await other.metrics()).filter((s) => s.name === "consumer_lag_messages")).toEqual([]);
  });
});
