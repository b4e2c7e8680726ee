import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "./bus";
import { createMemoryBus, type MemoryBus } from "./memory-bus";

const msg = (key: string, n: number) => ({ topic: "t.v1", key, value: { n } });

/** A full garbage collection on demand, without starting the test process with --expose-gc. */
function gcFunction(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

describe("memory bus", () => {
  it("delivers every message to every group, in order per key", async () => {
    const bus = createMemoryBus();
    const seenA: string[] = [];
    const seenB: string[] = [];
    await bus.subscribe({
      group: "a",
      topics: ["t.v1"],
      handler: async (m) => void seenA.push(`${m.key}:${(m.value as { n: number }).n}`),
    });
    await bus.publish([msg("k1", 1), msg("k2", 1), msg("k1", 2), msg("k1", 3)]);
    await bus.subscribe({
      group: "b",
      topics: ["t.v1"],
      handler: async (m) => void seenB.push(`${m.key}:${(m.value as { n: number }).n}`),
    });
    await bus.drained();
    for (const seen of [seenA, seenB]) {
      expect(seen.filter((s) => s.startsWith("k1"))).toEqual(["k1:1", "k1:2", "k1:3"]);
      expect(seen).toHaveLength(4);
    }
  });

  it("redelivers a message whose handler failed, before later messages of the same key", async () => {
    const bus = createMemoryBus();
    const seen: number[] = [];
    let failuresLeft = 2;
    await bus.subscribe({
      group: "g",
      topics: ["t.v1"],
      handler: async (m: IncomingMessage) => {
        const n = (m.value as { n: number }).n;
        if (n === 1 && failuresLeft-- > 0) throw new Error("transient");
        seen.push(n);
      },
    });
    await bus.publish([msg("k", 1), msg("k", 2)]);
    await bus.drained();
    expect(seen).toEqual([1, 2]);
  });

  it("keeps the message id and copies values so publishers cannot change delivered messages", async () => {
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["t.v1"], handler: async (m) => void got.push(m) });
    const value = { n: 1 };
    await bus.publish([{ topic: "t.v1", key: "k", value, id: "msg.fixed" }]);
    value.n = 99;
    await bus.drained();
    expect(got[0]?.id).toBe("msg.fixed");
    expect(got[0]?.value).toEqual({ n: 1 });
  });

  it("refuses a second subscription of the same group and publishing after stop", async () => {
    const bus = createMemoryBus();
    await bus.subscribe({ group: "g", topics: ["t.v1"], handler: async () => undefined });
    await expect(bus.subscribe({ group: "g", topics: ["t.v1"], handler: async () => undefined })).rejects.toThrow();
    await bus.stop();
    await expect(bus.publish([msg("k", 1)])).rejects.toThrow(/stopped/);
  });
});

describe("memory bus retention", () => {
  const many = (count: number) => Array.from({ length: count }, (_, n) => msg("k", n));

  const lateGroup = async (bus: MemoryBus, seen: number[]) =>
    bus.subscribe({
      group: "late",
      topics: ["t.v1"],
      batchHandler: async (messages) => void seen.push(...messages.map((m) => (m.value as { n: number }).n)),
    });

  it("keeps every message until start(): a group subscribing before it gets all that was published", async () => {
    const bus = createMemoryBus();
    await bus.subscribe({ group: "a", topics: ["t.v1"], batchHandler: async () => undefined });
    for (let i = 0; i < 6; i++) await bus.publish(many(500).map((m) => ({ ...m, value: { n: i * 500 + m.value.n } })));
    const late: number[] = [];
    await lateGroup(bus, late);
    await bus.start();
    await bus.drained();
    expect(late).toEqual(Array.from({ length: 3_000 }, (_, n) => n));
  });

  it("from start() on, drops what every group handled: a group subscribing later gets what is new", async () => {
    const bus = createMemoryBus();
    await bus.subscribe({ group: "a", topics: ["t.v1"], batchHandler: async () => undefined });
    await bus.start();
    for (let i = 0; i < 6; i++) await bus.publish(many(500).map((m) => ({ ...m, value: { n: i * 500 + m.value.n } })));
    await bus.drained();
    const late: number[] = [];
    await lateGroup(bus, late);
    await bus.publish(many(10).map((m) => ({ ...m, value: { n: 3_000 + m.value.n } })));
    await bus.drained();
    expect(late).toEqual(Array.from({ length: 10 }, (_, n) => 3_000 + n));
  });

  it("lets go of a message as soon as every group has handled it, however few follow it", async () => {
    const collect = gcFunction();
    const bus = createMemoryBus();
    const seen: Array<WeakRef<object>> = [];
    const remember = async (messages: IncomingMessage[]) =>
      void messages.forEach((m) => seen.push(new WeakRef(m.value as object)));
    await bus.subscribe({ group: "a", topics: ["t.v1"], batchHandler: remember });
    await bus.subscribe({ group: "b", topics: ["t.v1"], batchHandler: async () => undefined });
    await bus.start();
    // One message per partition key, far fewer than the 64 the log is trimmed by.
    for (let i = 0; i < 5; i++) await bus.publish([msg(`key-${i}`, i)]);
    await bus.drained();
    await new Promise((r) => setImmediate(r));
    collect();
    expect(seen).toHaveLength(5);
    expect(seen.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });

  it("never drops a message some group has yet to handle", async () => {
    const bus = createMemoryBus({ handledWaitMs: 10 });
    let slowMayGo = false;
    const slow: number[] = [];
    await bus.subscribe({ group: "fast", topics: ["t.v1"], batchHandler: async () => undefined });
    await bus.subscribe({
      group: "slow",
      topics: ["t.v1"],
      batchHandler: async (messages) => {
        if (!slowMayGo) throw new Error("not yet");
        for (const m of messages) slow.push((m.value as { n: number }).n);
      },
    });
    await bus.publish(many(3_000));
    slowMayGo = true;
    await bus.drained(20_000);
    expect(slow).toEqual(Array.from({ length: 3_000 }, (_, n) => n));
  });
});

describe("memory bus publish", () => {
  it("resolves once every subscribed group has handled the messages", async () => {
    const bus = createMemoryBus();
    const handled: string[] = [];
    const slow = (name: string) => async () => {
      await new Promise((r) => setTimeout(r, 30));
      handled.push(name);
    };
    await bus.subscribe({ group: "a", topics: ["t.v1"], handler: slow("a") });
    await bus.subscribe({ group: "b", topics: ["t.v1"], handler: slow("b") });
    await bus.publish([msg("k", 1)]);
    expect(handled.sort()).toEqual(["a", "b"]);
  });

  it("stops waiting after handledWaitMs when a consumer keeps failing, and keeps the message queued", async () => {
    const bus = createMemoryBus({ handledWaitMs: 100 });
    let healthy = false;
    const seen: number[] = [];
    await bus.subscribe({
      group: "g",
      topics: ["t.v1"],
      handler: async (m) => {
        if (!healthy) throw new Error("down");
        seen.push((m.value as { n: number }).n);
      },
    });
    const started = Date.now();
    await bus.publish([msg("k", 1)]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(seen).toEqual([]);
    healthy = true;
    await bus.drained();
    expect(seen).toEqual([1]);
  });
});

describe("memory bus batches", () => {
  it("hands consecutive messages of a partition to a batch handler in order, and retries the whole batch when the database is away", async () => {
    const bus = createMemoryBus();
    await bus.publish(Array.from({ length: 5 }, (_, n) => msg("k", n)));
    const batches: number[][] = [];
    let failOnce = true;
    await bus.subscribe({
      group: "g",
      topics: ["t.v1"],
      batchHandler: async (messages) => {
        if (failOnce) {
          failOnce = false;
          throw Object.assign(new Error("the database restarts"), { code: "57P01" });
        }
        batches.push(messages.map((m) => (m.value as { n: number }).n));
      },
    });
    await bus.drained();
    expect(batches).toEqual([[0, 1, 2, 3, 4]]);
  });

  it("tells each group's lag per topic: the messages it has not handled yet", async () => {
    const bus = createMemoryBus({ handledWaitMs: 0 });
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await bus.subscribe({ group: "slow", topics: ["t.v1"], handler: () => released });
    await bus.subscribe({ group: "quick", topics: ["t.v1", "u.v1"], handler: async () => undefined });
    await bus.publish([msg("k", 1), msg("k", 2), msg("j", 3)]);
    await new Promise((r) => setTimeout(r, 20));
    const lagOf = (group: string, topic: string) =>
      bus.consumerLag().lags.find((l) => l.group === group && l.topic === topic)?.messages;
    expect(lagOf("slow", "t.v1")).toBe(3);
    expect(lagOf("quick", "t.v1")).toBe(0);
    expect(lagOf("quick", "u.v1")).toBe(0);
    release();
    await bus.drained();
    expect(lagOf("slow", "t.v1")).toBe(0);
    expect(bus.consumerLag().readAt).toBeGreaterThan(Date.now() - 1_000);
  });
});
