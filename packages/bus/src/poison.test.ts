import { describe, expect, it } from "vitest";
import { TOPICS } from "@cardhold/contracts";
import type { IncomingMessage, OutgoingMessage } from "./bus";
import { createMemoryBus } from "./memory-bus";
import { createPoisonTracker, guardedHandling, isTransientFailure, UnreadableMessage } from "./poison";

const withCode = (code: string) => Object.assign(new Error("x"), { code });

describe("which failures are the infrastructure's", () => {
  it.each<[string, unknown, boolean]>([
    ["connection refused", withCode("ECONNREFUSED"), true],
    ["connection reset", withCode("ECONNRESET"), true],
    ["PostgreSQL shutting down (57P01)", withCode("57P01"), true],
    ["PostgreSQL connection failure (08006)", withCode("08006"), true],
    ["serialization failure (40001)", withCode("40001"), true],
    ["too many connections (53300)", withCode("53300"), true],
    ["lock not available (55P03)", withCode("55P03"), true],
    ["pg pool: connection timeout", new Error("timeout exceeded when trying to connect"), true],
    ["pg: connection terminated", new Error("Connection terminated unexpectedly"), true],
    ["kafkajs retriable", Object.assign(new Error("broker"), { retriable: true }), true],
    ["platform 503", Object.assign(new Error("down"), { status: 503 }), true],
    ["unique violation (23505)", withCode("23505"), false],
    ["check violation (23514)", withCode("23514"), false],
    ["a TypeError in a handler", new TypeError("cannot read properties of undefined"), false],
    ["a string", "boom", false],
    ["null", null, false],
  ])("%s → %s", (_name, error, transient) => {
    expect(isTransientFailure(error)).toBe(transient);
  });
});

describe("the poison tracker", () => {
  it("sets a message aside after 5 failures of its own over a minute, never for the infrastructure's", () => {
    let clock = 0;
    const tracker = createPoisonTracker(undefined, () => clock);
    for (let i = 0; i < 50; i++) expect(tracker.failed("m", withCode("ECONNREFUSED"))).toBe("retry");
    for (let i = 0; i < 20; i++) expect(tracker.failed("m", new TypeError("bad"))).toBe("retry");
    clock = 59_999;
    expect(tracker.failed("m", new TypeError("bad"))).toBe("retry");
    clock = 60_000;
    expect(tracker.failed("m", new TypeError("bad"))).toBe("dead-letter");
  });

  it("needs the attempts too, not only the time", () => {
    let clock = 0;
    const tracker = createPoisonTracker({ attempts: 3, ms: 10 }, () => clock);
    expect(tracker.failed("m", new Error("bad"))).toBe("retry");
    clock = 1_000;
    expect(tracker.failed("m", new Error("bad"))).toBe("retry");
    expect(tracker.failed("m", new Error("bad"))).toBe("dead-letter");
  });

  it("starts counting again once the message was handled", () => {
    const tracker = createPoisonTracker({ attempts: 2, ms: 0 });
    expect(tracker.failed("m", new Error("bad"))).toBe("retry");
    tracker.handled("m");
    expect(tracker.failed("m", new Error("bad"))).toBe("retry");
    expect(tracker.failed("m", new Error("bad"))).toBe("dead-letter");
  });
});

const message = (n: number, value: unknown = { n }): IncomingMessage => ({
  id: `msg.${n}`,
  topic: "things.v1",
  key: "k",
  value,
  headers: {},
  partition: 0,
  offset: String(n),
});

describe("guarded handling of a chunk", () => {
  const harness = (failOn: (m: IncomingMessage) => unknown) => {
    const handled: number[] = [];
    const setAside: OutgoingMessage[] = [];
    const handle = guardedHandling({
      group: "g",
      policy: { attempts: 2, ms: 0 },
      run: async (messages) => {
        for (const m of messages) {
          const error = failOn(m);
          if (error) throw error;
        }
        handled.push(...messages.map((m) => (m.value as { n: number }).n));
      },
      setAside: async (deadLetter) => void setAside.push(deadLetter),
      onSetAside: () => undefined,
    });
    return { handled, setAside, handle };
  };

  it("a batch failing because of one message is taken one at a time; that one is retried, then set aside", async () => {
    const h = harness((m) => (m.offset === "2" ? new TypeError("cannot handle 2") : undefined));
    const chunk = [message(1), message(2), message(3)];
    await expect(h.handle(chunk)).rejects.toThrow("cannot handle 2");
    expect(h.handled).toEqual([1]);
    await h.handle([message(2), message(3)]);
    expect(h.handled).toEqual([1, 3]);
    expect(h.setAside).toHaveLength(1);
    expect(h.setAside[0]).toMatchObject({
      topic: TOPICS.deadLetters,
      key: "k",
      value: { group: "g", topic: "things.v1", offset: "2", messageId: "msg.2", value: { n: 2 } },
    });
    expect((h.setAside[0]!.value as { error: string }).error).toBe("TypeError: cannot handle 2");
    expect(h.setAside[0]!.id).toBe("msg.2/g");
    // Delivered again from an earlier offset (a restart): the message set aside is skipped, not set aside again.
    await h.handle([message(2), message(4)]);
    expect(h.handled).toEqual([1, 3, 4]);
    expect(h.setAside).toHaveLength(1);
  });

  it("a batch failing because the database is away is delivered again whole, however often", async () => {
    const h = harness(() => withCode("57P01"));
    for (let i = 0; i < 10; i++) await expect(h.handle([message(1), message(2)])).rejects.toThrow();
    expect(h.setAside).toEqual([]);
  });

  it("an unreadable message is set aside at once, its text kept; the others are handled", async () => {
    const h = harness(() => undefined);
    await h.handle([message(1), message(2, new UnreadableMessage("{not json")), message(3)]);
    expect(h.handled).toEqual([1, 3]);
    expect(h.setAside[0]!.value).toMatchObject({
      value: "{not json",
      error: "UnreadableMessage: the message is not JSON",
    });
  });
});

describe("the memory bus with a message its handler cannot take", () => {
  it("sets it aside on dead-letters.v1 after a few attempts and goes on with the partition", async () => {
    const bus = createMemoryBus({ handledWaitMs: 0, poison: { attempts: 3, ms: 0 } });
    await bus.start();
    const handled: number[] = [];
    const deadLetters: unknown[] = [];
    await bus.subscribe({
      group: "dead",
      topics: [TOPICS.deadLetters],
      handler: async (m) => void deadLetters.push(m.value),
    });
    await bus.subscribe({
      group: "things",
      topics: ["things.v1"],
      handler: async (m) => {
        const { n } = m.value as { n: number };
        if (n === 2) throw new TypeError("never");
        handled.push(n);
      },
    });
    await bus.publish([1, 2, 3].map((n) => ({ topic: "things.v1", key: "same", value: { n } })));
    await bus.drained(20_000);
    expect(handled).toEqual([1, 3]);
    expect(deadLetters).toEqual([expect.objectContaining({ group: "things", topic: "things.v1", value: { n: 2 } })]);
    await bus.stop();
  });
});
