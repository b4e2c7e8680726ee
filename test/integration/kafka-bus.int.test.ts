import { randomBytes } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, type Bus, type IncomingMessage } from "@cardhold/bus";
import { TOPICS } from "@cardhold/contracts";
import { eventually } from "../support/eventually";
import { HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";

const logger = pino({ level: "silent" });

describe.skipIf(!HAS_INFRASTRUCTURE)("the Kafka bus against a real broker", () => {
  const buses: Bus[] = [];
  const newBus = async () => {
    const bus = createKafkaBus({ brokers: KAFKA_BROKERS!.split(","), clientId: "bus-it", logger, topics: [TOPICS.events] });
    buses.push(bus);
    await bus.start();
    return bus;
  };
  let producer: Bus;
  const run = randomBytes(4).toString("hex");

  beforeAll(async () => {
    producer = await newBus();
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.stop()));
  });

  it("creates its topics and reports ready", async () => {
    expect(await producer.ready()).toBe(true);
  });

  it("delivers to every group, in order per key, with the message id", async () => {
    const seen: Record<string, IncomingMessage[]> = { a: [], b: [] };
    for (const group of ["a", "b"]) {
      const consumer = await newBus();
      await consumer.subscribe({
        group: `bus-it-${run}-${group}`,
        topics: [TOPICS.events],
        handler: async (m) => {
          if (m.key.startsWith(run)) seen[group]!.push(m);
        },
      });
    }
    const key = `${run}-order`;
    await producer.publish(Array.from({ length: 20 }, (_, n) => ({ topic: TOPICS.events, key, value: { n }, id: `msg.${run}.${n}` })));
    for (const group of ["a", "b"]) {
      await eventually(() => expect(seen[group]).toHaveLength(20), 30_000);
      expect(seen[group]!.map((m) => (m.value as { n: number }).n)).toEqual([...Array(20).keys()]);
      expect(seen[group]![0]!.id).toBe(`msg.${run}.0`);
    }
  });

  it("redelivers a message whose handler failed", async () => {
    const consumer = await newBus();
    const attempts: number[] = [];
    await consumer.subscribe({
      group: `bus-it-${run}-retry`,
      topics: [TOPICS.events],
      handler: async (m) => {
        if (m.key !== `${run}-retry`) return;
        attempts.push(Date.now());
        if (attempts.length < 3) throw new Error("transient");
      },
    });
    await producer.publish([{ topic: TOPICS.events, key: `${run}-retry`, value: { retry: true } }]);
    await eventually(() => expect(attempts.length).toBeGreaterThanOrEqual(3), 60_000);
  });
});
