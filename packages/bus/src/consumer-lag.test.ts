import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createKafkaLagReader, type LagAdmin } from "./consumer-lag";

const logger = pino({ level: "silent" });

type TopicOffsets = Awaited<ReturnType<LagAdmin["fetchTopicOffsets"]>>;
type GroupOffsets = Awaited<ReturnType<LagAdmin["fetchOffsets"]>>;

/** An admin answering from tables: each partition's [low, high], and each group's committed offsets (-1: none). */
function fakeAdmin(ends: Record<string, Array<[number, number]>>, committed: Record<string, Record<string, number[]>>) {
  const calls = { topics: 0, groups: 0 };
  let failing = false;
  const admin: LagAdmin = {
    async fetchTopicOffsets(topic) {
      calls.topics++;
      if (failing) throw new Error("broker away");
      return (ends[topic] ?? []).map(([low, high], partition): TopicOffsets[number] => ({
        partition,
        offset: String(high),
        high: String(high),
        low: String(low),
      }));
    },
    async fetchOffsets({ groupId, topics }) {
      calls.groups++;
      if (failing) throw new Error("broker away");
      return (topics ?? []).map((topic): GroupOffsets[number] => ({
        topic,
        partitions: (committed[groupId]?.[topic] ?? []).map((offset, partition) => ({
          partition,
          offset: String(offset),
          metadata: null,
        })),
      }));
    },
  };
  return { admin, calls, fail: (on: boolean) => void (failing = on) };
}

describe("the Kafka consumer lag reader", () => {
  it("sums latest minus committed over a topic's partitions, counting from the earliest offset where nothing is committed", async () => {
    const { admin } = fakeAdmin(
      {
        "events.v1": [
          [0, 10],
          [5, 20],
          [0, 0],
        ],
        "webhooks.v1": [[0, 4]],
      },
      { "svc.events": { "events.v1": [10, -1, -1] }, "svc.webhooks": { "webhooks.v1": [1] } },
    );
    const groups = new Map([
      ["svc.events", ["events.v1"]],
      ["svc.webhooks", ["webhooks.v1"]],
    ]);
    const reader = createKafkaLagReader({ admin, logger, groups: () => groups });
    expect(reader.latest()).toEqual({ lags: [], readAt: undefined });
    await reader.read();
    expect(reader.latest().lags).toEqual([
      { group: "svc.events", topic: "events.v1", messages: 15 },
      { group: "svc.webhooks", topic: "webhooks.v1", messages: 3 },
    ]);
    expect(reader.latest().readAt).toBeGreaterThan(Date.now() - 1_000);
  });

  it("keeps the last reading when the broker cannot be read", async () => {
    const { admin, fail } = fakeAdmin({ "events.v1": [[0, 7]] }, { g: { "events.v1": [2] } });
    const reader = createKafkaLagReader({ admin, logger, groups: () => new Map([["g", ["events.v1"]]]) });
    await reader.read();
    const good = reader.latest();
    fail(true);
    await expect(reader.read()).resolves.toBeUndefined();
    expect(reader.latest()).toBe(good);
  });

  it("reads on its own timer, one reading at a time, and stops", async () => {
    const { admin, calls } = fakeAdmin({ "events.v1": [[0, 1]] }, { g: { "events.v1": [1] } });
    const reader = createKafkaLagReader({
      admin,
      logger,
      groups: () => new Map([["g", ["events.v1"]]]),
      intervalMs: 20,
    });
    reader.start();
    await Promise.all([reader.read(), reader.read()]);
    await new Promise((r) => setTimeout(r, 100));
    reader.stop();
    const after = calls.topics;
    expect(after).toBeGreaterThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 60));
    expect(calls.topics).toBe(after);
    expect(reader.latest().lags).toEqual([{ group: "g", topic: "events.v1", messages: 0 }]);
  });
});
