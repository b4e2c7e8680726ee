import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createMemoryBus } from "@cardhold/bus";
import type { Db } from "@cardhold/db";
import { parseSamples, sampleOf } from "../../../test/support/metrics-scrape";
import { registerConsumerLagGauges, registerOutboxGauges, scrapeRead } from "./queue-metrics";

describe("a read for gauges on scrape", () => {
  it("keeps the last good value when a read fails", async () => {
    let calls = 0;
    let fail = false;
    const read = scrapeRead(async () => {
      calls++;
      if (fail) throw new Error("database down");
      return calls;
    });
    expect(await read()).toBe(1);
    fail = true;
    expect(await read()).toBe(1);
    fail = false;
    expect(await read()).toBe(3);
  });

  it("gives up on a slow read after its timeout, and starts no second one meanwhile", async () => {
    let calls = 0;
    const read = scrapeRead(
      () => {
        calls++;
        return new Promise<number>(() => undefined);
      },
      { timeoutMs: 20 },
    );
    expect(await Promise.all([read(), read()])).toEqual([undefined, undefined]);
    expect(await read()).toBeUndefined();
    expect(calls).toBe(1);
  });
});

describe("the queue gauges", () => {
  it("a database that cannot be read fails no scrape: the outbox gauges keep their value", async () => {
    const registry = new Registry();
    let down = false;
    const db = {
      query: async () => {
        if (down) throw new Error("connection refused");
        return { rows: [{ messages: 7, oldest_age_seconds: 2.5 }] };
      },
    } as unknown as Db;
    registerOutboxGauges(registry, db, "svc");
    const first = parseSamples(await registry.metrics());
    expect(sampleOf(first, "outbox_backlog_messages")).toBe(7);
    expect(sampleOf(first, "outbox_oldest_message_age_seconds")).toBe(2.5);
    down = true;
    const second = parseSamples(await registry.metrics());
    expect(sampleOf(second, "outbox_backlog_messages")).toBe(7);
  });

  it("reports only the service's own consumer groups from a shared bus", async () => {
    const registry = new Registry();
    const bus = createMemoryBus();
    await bus.subscribe({ group: "engine.decisions", topics: ["decisions.v1"], handler: async () => undefined });
    await bus.subscribe({ group: "engine", topics: ["customers.v1"], handler: async () => undefined });
    await bus.subscribe({ group: "engine-other.x", topics: ["decisions.v1"], handler: async () => undefined });
    registerConsumerLagGauges(registry, bus, "engine");
    const samples = parseSamples(await registry.metrics()).filter((s) => s.name === "consumer_lag_messages");
    expect(samples.map((s) => s.labels.group).sort()).toEqual(["engine", "engine.decisions"]);
    expect(sampleOf(samples, "consumer_lag_messages", { group: "engine.decisions", topic: "decisions.v1" })).toBe(0);
    expect(sampleOf(parseSamples(await registry.metrics()), "consumer_lag_reading_age_seconds")).toBeLessThan(1);
  });
});
