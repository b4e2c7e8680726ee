import { beforeEach, describe, expect, it } from "vitest";
import { pino } from "pino";
import type { Db } from "@cardhold/db";
import type { Bus, IncomingMessage, OutgoingMessage } from "./bus";
import type { DirectLane } from "./direct-lane";
import { createMemoryBus } from "./memory-bus";
import { createOutboxRelay, enqueue, type OutboxRow } from "./outbox";
import { useOutboxDatabase } from "./outbox-test-database";

const logger = pino({ level: "silent" });
const TOPIC = "events.v1";
const database = useOutboxDatabase();
let db: Db;
beforeEach(() => {
  db = database();
});

/** A lane that records what it was given, and takes it while `takes` says so (after `delayMs`). */
function fakeLane(opts: { takes?: () => boolean; delayMs?: number } = {}) {
  const posted: OutboxRow[][] = [];
  const ended: number[] = [];
  const lane: DirectLane = {
    topic: TOPIC,
    async post(rows) {
      posted.push(rows);
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      ended.push(performance.now());
      return opts.takes?.() ?? true;
    },
  };
  return { lane, posted, ended, postedIds: () => posted.flat().map((r) => r.id) };
}

async function relayWith(lane: DirectLane, leaseMs?: number) {
  const bus = createMemoryBus();
  const got: IncomingMessage[] = [];
  const gotAt: number[] = [];
  const handler = async (m: IncomingMessage) => {
    got.push(m);
    gotAt.push(performance.now());
  };
  await bus.subscribe({ group: "g", topics: [TOPIC, "other.v1"], handler });
  const relay = createOutboxRelay({ db, schema: "svc", bus, logger, idleMs: 20, directLane: lane, leaseMs });
  relay.start();
  return { relay, got, gotAt, gotIds: () => got.map((m) => m.id) };
}

const commit = (messages: (OutgoingMessage & { id: string })[]) => db.tx((c) => enqueue(c, "svc", messages));
const message = (id: string, key: string, opensKey = false, topic = TOPIC) => ({
  id,
  key,
  topic,
  value: { id },
  opensKey,
});

describe("an outbox relay's direct lane", () => {
  it("posts a key's opening message and the key's later ones; a key it never saw open goes on the bus", async () => {
    const { lane, postedIds } = fakeLane();
    const { relay, gotIds } = await relayWith(lane);
    await commit([message("msg.a1", "a", true), message("msg.o1", "a", false, "other.v1")]);
    await waitFor(() => postedIds().length === 1 && gotIds().length === 1);
    await commit([message("msg.a2", "a")]);
    await commit([message("msg.b1", "b")]);
    await waitFor(() => postedIds().length === 2 && gotIds().length === 2);
    await relay.stop();
    expect(postedIds()).toEqual(["msg.a1", "msg.a2"]);
    expect(gotIds()).toEqual(["msg.o1", "msg.b1"]);
    const { rows } = await db.query("SELECT count(*)::int AS n FROM svc.outbox");
    expect(rows[0]?.n).toBe(0);
  });

  it("marks only a key's first message of a transaction as opening it", async () => {
    const { lane, posted } = fakeLane({ takes: () => false });
    const { relay, gotIds } = await relayWith(lane);
    await commit([message("msg.c1", "c", true), message("msg.c2", "c", true)]);
    await waitFor(() => gotIds().length === 2);
    await relay.stop();
    expect(posted.flat().map((r) => [r.id, r.headers["opens-key"]])).toEqual([
      ["msg.c1", "1"],
      ["msg.c2", undefined],
    ]);
  });

  it("sends what the lane refused on the bus in commit order, and the key's later messages after it", async () => {
    let takes = false;
    const { lane, postedIds } = fakeLane({ takes: () => takes });
    const { relay, gotIds } = await relayWith(lane);
    await commit([message("msg.d1", "d", true), message("msg.d2", "d")]);
    await waitFor(() => gotIds().length === 2);
    takes = true;
    await commit([message("msg.d3", "d")]);
    await waitFor(() => gotIds().length === 3);
    await relay.stop();
    expect(gotIds()).toEqual(["msg.d1", "msg.d2", "msg.d3"]);
    expect(postedIds()).toEqual(["msg.d1", "msg.d2"]);
  });

  it("publishes a key's message for another topic only once the post of its key has ended", async () => {
    const { lane, postedIds, ended } = fakeLane({ delayMs: 100 });
    const { relay, got, gotAt } = await relayWith(lane);
    await commit([message("msg.e1", "e", true), message("msg.e-other", "e", false, "other.v1")]);
    await waitFor(() => postedIds().length === 1 && got.length === 1);
    await relay.stop();
    expect(gotAt[0]).toBeGreaterThanOrEqual(ended[0]!);
  });

  it("ends a step only once its post has, when the bus fails beside it: no post runs into the next step", async () => {
    let posting = 0;
    let mostAtOnce = 0;
    const lane: DirectLane = {
      topic: TOPIC,
      async post() {
        mostAtOnce = Math.max(mostAtOnce, ++posting);
        await new Promise((r) => setTimeout(r, 300));
        posting -= 1;
        return true;
      },
    };
    const memory = createMemoryBus();
    const got: string[] = [];
    await memory.subscribe({ group: "g", topics: ["other.v1"], handler: async (m) => void got.push(m.id) });
    let failures = 1;
    const bus: Bus = {
      ...memory,
      async publish(messages) {
        if (failures-- > 0) throw new Error("broker away");
        await memory.publish(messages);
      },
    };
    const relay = createOutboxRelay({ db, schema: "svc", bus, logger, idleMs: 20, directLane: lane });
    relay.start();
    await commit([message("msg.g1", "g", true), message("msg.x1", "x", false, "other.v1")]);
    await waitFor(() => got.length === 1);
    await relay.stop();
    expect(mostAtOnce).toBe(1);
  });

  it("forgets what it knew of keys once another relay held the lease: a known key's next message goes on the bus", async () => {
    const { lane, postedIds } = fakeLane();
    const { relay, gotIds } = await relayWith(lane, 200);
    await commit([message("msg.f1", "f", true)]);
    await waitFor(() => postedIds().length === 1);
    // Another relay holds the lease for a while (it may have sent f's next messages on the bus), then lets it lapse.
    await db.query(
      "UPDATE svc.outbox_relay_lease SET owner = 'another-relay', expires_at = now() + interval '1 second'",
    );
    await new Promise((r) => setTimeout(r, 1_500));
    await commit([message("msg.f2", "f")]);
    await waitFor(() => gotIds().length === 1);
    await relay.stop();
    expect(postedIds()).toEqual(["msg.f1"]);
    expect(gotIds()).toEqual(["msg.f2"]);
  });
});

async function waitFor(predicate: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
