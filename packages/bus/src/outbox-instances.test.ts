import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pino } from "pino";
import { createDb, type Db } from "@cardhold/db";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import type { IncomingMessage } from "./bus";
import { createMemoryBus } from "./memory-bus";
import { migrateMessaging } from "./messaging-tables";
import { createOutboxRelay, enqueue, outboxInsert } from "./outbox";

const logger = pino({ level: "silent" });
let server: TestDatabase;
/** Two processes of one service: each its own pool (and so its own commit notes), one schema. */
let first: Db;
let second: Db;

beforeAll(async () => {
  server = await createTestDatabase();
  first = server.db;
  second = createDb({ url: server.url, poolSize: 2 });
  await migrateMessaging(first, "svc");
});
afterAll(async () => {
  await second.close();
  await server.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(async () => {
  await first.query("DELETE FROM svc.outbox; DELETE FROM svc.outbox_relay_lease");
});

describe("outbox relays of several processes", () => {
  it("a step committed here after another process's step of the same resource is published after it", async () => {
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    // The holder reads the table once a second when nothing tells it to, and renews its lease then.
    const holder = createOutboxRelay({ db: first, schema: "svc", bus, logger, idleMs: 1_000, leaseMs: 1_000 });
    holder.start();
    await sleep(100);
    const other = createOutboxRelay({ db: second, schema: "svc", bus, logger, idleMs: 1_000, leaseMs: 1_000 });
    other.start();
    await sleep(1_100); // the holder has renewed its lease (and read the table) since the other relay asked for it

    // Another engine approves (its row waits for the holder), then this one, having seen the approval, reverses.
    await second.tx((c) =>
      enqueue(c, "svc", [{ topic: "things.v1", key: "auth-1", value: { step: "approved" }, id: "msg.approved" }]),
    );
    await first.tx((c) =>
      enqueue(c, "svc", [{ topic: "things.v1", key: "auth-1", value: { step: "reversed" }, id: "msg.reversed" }]),
    );
    const deadline = Date.now() + 3_000;
    while (got.length < 2 && Date.now() < deadline) await sleep(10);
    await other.stop();
    await holder.stop();
    expect(got.map((m) => m.id)).toEqual(["msg.approved", "msg.reversed"]);
  });

  it("a new instance announces itself before it commits: the holder's later step waits for its earlier one", async () => {
    // A bus other processes share (Kafka's); the relays' logic is the same on the in-process one.
    const bus = { ...createMemoryBus(), crossProcess: true };
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g3", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    // The holder reads the table only when it knows of others (idle reads a minute apart), renews every 500 ms.
    const holder = createOutboxRelay({ db: first, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: 1_000 });
    holder.start();
    await holder.announce(); // takes the lease: at once
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "warm", value: {}, id: "msg.warm" }]));
    while (got.length < 1) await sleep(5);
    const other = createOutboxRelay({ db: second, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: 1_000 });
    const announcing = Date.now();
    await other.announce();
    const waitedMs = Date.now() - announcing;
    other.start();
    // The new instance approves, then the holder's process, having seen the approval, reverses.
    await second.tx((c) =>
      enqueue(c, "svc", [{ topic: "things.v1", key: "auth-3", value: { step: "approved" }, id: "msg.approved-3" }]),
    );
    await first.tx((c) =>
      enqueue(c, "svc", [{ topic: "things.v1", key: "auth-3", value: { step: "reversed" }, id: "msg.reversed-3" }]),
    );
    const deadline = Date.now() + 3_000;
    while (got.length < 3 && Date.now() < deadline) await sleep(10);
    await other.stop();
    await holder.stop();
    expect(waitedMs).toBeGreaterThanOrEqual(450);
    expect(got.map((m) => m.id)).toEqual(["msg.warm", "msg.approved-3", "msg.reversed-3"]);
  });

  /** How long a new instance's announce() takes while another holds a `leaseMs` lease that runs out in `leftMs`. */
  const announceWaitWhileHeld = async (leftMs: number, leaseMs: number) => {
    await first.query(
      "INSERT INTO svc.outbox_relay_lease (name, owner, expires_at) VALUES ('relay', 'holder', now() + $1 * interval '1 ms')",
      [leftMs],
    );
    const bus = { ...createMemoryBus(), crossProcess: true };
    const relay = createOutboxRelay({ db: second, schema: "svc", bus, logger, leaseMs });
    const announcing = Date.now();
    await relay.announce();
    const waitedMs = Date.now() - announcing;
    await relay.stop();
    return waitedMs;
  };

  it("a new instance whose lease holder stopped renewing (a killed process) commits at once", async () => {
    // The holder renewed a 5 s lease 3 s ago and was killed: it renews before it publishes anything, if it lives.
    expect(await announceWaitWhileHeld(2_000, 5_000)).toBeLessThan(400); // the fixed wait was half the lease, 2.5 s
  });

  it("a new instance waits until half a lease after the holder's last renewal, plus a tenth", async () => {
    // Renewed 600 ms ago for 2 s: due to renew (and read the announcement) 400 ms from now; 200 ms on top.
    const waitedMs = await announceWaitWhileHeld(1_400, 2_000);
    expect(waitedMs).toBeGreaterThanOrEqual(550);
    expect(waitedMs).toBeLessThan(900); // the fixed wait was 1,000 ms
  });

  it("announcing on a bus no other process uses, or as the lease's taker, does not wait", async () => {
    const alone = createOutboxRelay({ db: first, schema: "svc", bus: createMemoryBus(), logger, leaseMs: 10_000 });
    const taker = createOutboxRelay({
      db: second,
      schema: "svc",
      bus: { ...createMemoryBus(), crossProcess: true },
      logger,
      leaseMs: 10_000,
    });
    const started = Date.now();
    await alone.announce();
    await taker.announce();
    expect(Date.now() - started).toBeLessThan(1_000);
    await taker.stop();
    await alone.stop();
  });

  it("while another process writes the outbox, its rows are published within a few polls, not at the next idle read", async () => {
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g2", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    // Idle reads a minute apart: only the holder's poll while shared can publish the other process's row in time.
    const holder = createOutboxRelay({ db: first, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: 1_000 });
    holder.start();
    await sleep(100);
    const other = createOutboxRelay({ db: second, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: 1_000 });
    other.start();
    await second.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "k", value: {}, id: "msg.nudge" }]));
    await sleep(600); // past half the lease: the holder's next step renews it and learns of the other relay
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "k0", value: {}, id: "msg.renew" }]));
    while (got.length < 2) await sleep(5);
    got.length = 0;
    const committedAt = Date.now();
    await second.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "auth-2", value: {}, id: "msg.from-other" }]));
    while (got.length < 1 && Date.now() - committedAt < 3_000) await sleep(5);
    const tookMs = Date.now() - committedAt;
    await other.stop();
    await holder.stop();
    expect(got.map((m) => m.id)).toEqual(["msg.from-other"]);
    expect(tookMs).toBeLessThan(500);
  });

  /**
   * A lease holder that knows of another relay (it reads the table before it publishes), on a bus whose publish hangs
   * while the broker is away (kafkajs retries) and goes through once it is back; `holderDb`: the holder's Db.
   */
  const sharedHolderOnHangingBus = async (group: string, holderDb: Db) => {
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group, topics: ["things.v1"], handler: async (m) => void got.push(m) });
    let away = false;
    let back: () => void = () => undefined;
    const hanging = {
      ...bus,
      publish: async (messages: Parameters<typeof bus.publish>[0]) => {
        if (away) await new Promise<void>((resolve) => (back = resolve));
        return bus.publish(messages);
      },
    };
    const relayOn = (db: Db) =>
      createOutboxRelay({ db, schema: "svc", bus: hanging, logger, idleMs: 60_000, leaseMs: 1_000 });
    const holder = relayOn(holderDb);
    holder.start();
    await sleep(100);
    const other = relayOn(second);
    other.start();
    await second.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "k", value: {}, id: `msg.nudge-${group}` }]));
    await sleep(600); // past half the lease: the holder's next step renews it and learns of the other relay
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "k0", value: {}, id: `msg.renew-${group}` }]));
    while (got.length < 2) await sleep(5);
    return {
      got,
      /** The broker goes away, and a row committed here has the holder read the table and hang publishing it. */
      async brokerAway() {
        away = true;
        await first.tx((c) =>
          enqueue(c, "svc", [{ topic: "things.v1", key: "k0", value: {}, id: `msg.hangs-${group}` }]),
        );
        await sleep(100);
      },
      brokerBack() {
        away = false;
        back();
      },
      async stop() {
        await other.stop();
        await holder.stop();
      },
    };
  };

  it("a step committed here while the holder's publish of an earlier read hung waits for another process's earlier step", async () => {
    const run = await sharedHolderOnHangingBus("g4", first);
    await run.brokerAway();
    // Meanwhile another engine approves (its row waits in the table), then this one, having seen it, reverses.
    await second.tx((c) =>
      enqueue(c, "svc", [{ topic: "things.v1", key: "auth-4", value: { step: "approved" }, id: "msg.approved-4" }]),
    );
    await first.tx((c) =>
      enqueue(c, "svc", [{ topic: "things.v1", key: "auth-4", value: { step: "reversed" }, id: "msg.reversed-4" }]),
    );
    run.brokerBack();
    const ofAuth = () => run.got.filter((m) => m.key === "auth-4").map((m) => m.id);
    const deadline = Date.now() + 3_000;
    while (ofAuth().length < 2 && Date.now() < deadline) await sleep(10);
    await run.stop();
    expect(ofAuth()).toEqual(["msg.approved-4", "msg.reversed-4"]);
  });

  it("rows handed over that another holder published meanwhile are dropped, not read for again and again", async () => {
    let reads = 0;
    const counted: Db = { ...first, bookkeeping: (text, values) => (reads++, first.bookkeeping(text, values)) };
    const run = await sharedHolderOnHangingBus("g5", counted);
    await run.brokerAway();
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "k1", value: {}, id: "msg.gone-5" }]));
    // Published and deleted by a holder that took the lease while this one hung (as after a long broker outage).
    await first.query("DELETE FROM svc.outbox WHERE id = 'msg.gone-5'");
    run.brokerBack();
    await sleep(100);
    const readsBefore = reads;
    await sleep(500);
    const readsIn500Ms = reads - readsBefore;
    await run.stop();
    expect(run.got.map((m) => m.id)).not.toContain("msg.gone-5");
    expect(readsIn500Ms).toBeLessThan(50); // the shared poll's pace (every 20 ms), not a loop
  });

  it("a relay alone publishes what its transactions hand over without reading the table", async () => {
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    const relay = createOutboxRelay({ db: first, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: 400 });
    relay.start();
    await sleep(300);
    // A row nobody hands over waits for the next read (a minute away): the relay did not read the table for the next.
    await first.query(
      "INSERT INTO svc.outbox (id, topic, key, value) VALUES ('msg.unannounced', 'things.v1', 'x', '{}')",
    );
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "y", value: {}, id: "msg.announced" }]));
    const deadline = Date.now() + 2_000;
    while (got.length < 1 && Date.now() < deadline) await sleep(10);
    await relay.stop();
    expect(got.map((m) => m.id)).toEqual(["msg.announced"]);
  });
});

/** A process's Db whose database can be made unreachable, and whose commits can lose their answer. */
function faultyDb(db: Db) {
  let down = false;
  const unknownCommit = new Set<(notes: unknown[]) => void>();
  const unreachable = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
  const wrapped: Db = {
    ...db,
    query: ((text: string, values?: unknown[]) => (down ? unreachable() : db.query(text, values))) as Db["query"],
    bookkeeping: ((text: string, values?: unknown[]) =>
      down ? unreachable() : db.bookkeeping(text, values)) as Db["bookkeeping"],
    onCommitUnknown(listener) {
      unknownCommit.add(listener);
      return () => void unknownCommit.delete(listener);
    },
  };
  return {
    db: wrapped,
    setDown: (value: boolean) => void (down = value),
    /** Commits `messages` to the outbox, as a transaction whose COMMIT's answer never came back. */
    async commitWithLostAnswer(messages: { key: string; id: string }[]) {
      const insert = outboxInsert(
        "svc",
        messages.map((m) => ({ topic: "things.v1", value: {}, ...m })),
      );
      await db.query(insert.text, insert.values);
      for (const listener of unknownCommit) listener([{ outbox: "svc", rows: insert.rows }]);
    },
  };
}

describe("an outbox relay after a failure", () => {
  const collect = async (bus: ReturnType<typeof createMemoryBus>, group: string) => {
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group, topics: ["things.v1"], handler: async (m) => void got.push(m) });
    return got;
  };
  const until = async (done: () => boolean, ms = 3_000) => {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await sleep(5);
  };

  /** A relay alone on a database that can fail, idle reads a minute apart, having published one warm-up row. */
  const warmRelayOnFaultyDb = async (group: string, warmUpId: string) => {
    const bus = createMemoryBus();
    const got = await collect(bus, group);
    const faulty = faultyDb(first);
    const relay = createOutboxRelay({ db: faulty.db, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: 10_000 });
    relay.start();
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "w", value: {}, id: warmUpId }]));
    await until(() => got.length === 1);
    return { got, faulty, relay };
  };

  it("a commit whose answer was lost: its rows are read from the table before a later step is published", async () => {
    // Without reading the table, the lost commit's row would wait for the next idle read, a minute away.
    const { got, faulty, relay } = await warmRelayOnFaultyDb("lost-1", "msg.warm-l");
    await faulty.commitWithLostAnswer([{ key: "auth-l", id: "msg.approved-l" }]);
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "auth-l", value: {}, id: "msg.reversed-l" }]));
    await until(() => got.length === 3);
    await relay.stop();
    expect(got.map((m) => m.id)).toEqual(["msg.warm-l", "msg.approved-l", "msg.reversed-l"]);
  });

  it("a read that failed (the database away) is done again before anything is published from memory", async () => {
    const { got, faulty, relay } = await warmRelayOnFaultyDb("lost-2", "msg.warm-r");
    faulty.setDown(true);
    relay.wake(); // the read fails
    await sleep(50);
    // A row committed while the relay could not read (its commit's answer lost, unannounced), then a later step.
    await first.query(
      "INSERT INTO svc.outbox (id, topic, key, value) VALUES ('msg.approved-r', 'things.v1', 'auth-r', '{}')",
    );
    faulty.setDown(false);
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "auth-r", value: {}, id: "msg.reversed-r" }]));
    await until(() => got.length === 3);
    await relay.stop();
    expect(got.map((m) => m.id)).toEqual(["msg.warm-r", "msg.approved-r", "msg.reversed-r"]);
  });

  it("after a gap in the holder's renewals (an outage), another relay's lapsed stamp does not make it publish alone", async () => {
    const bus = { ...createMemoryBus(), crossProcess: true };
    const got = await collect(bus, "gap");
    const holder = createOutboxRelay({ db: first, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: 2_000 });
    holder.start();
    await holder.announce();
    const other = createOutboxRelay({ db: second, schema: "svc", bus, logger, idleMs: 60_000, leaseMs: 2_000 });
    await other.announce(); // stamps its presence for two lease lengths
    other.start();
    // Neither relay reaches the database for longer than the stamp lasts (here: both idle, as in an outage). A lease of
    // 2 s: the steps below must come within one lease length of the gap (on a loaded machine 1 s was sometimes not enough).
    await sleep(4_300); // the stamp lasts two lease lengths
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "t", value: {}, id: "msg.renews" }]));
    await until(() => got.length === 1);
    // The other engine approves (its row waits in the table), then this one reverses, before its next renewal.
    await second.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "auth-g", value: {}, id: "msg.approved-g" }]));
    await first.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "auth-g", value: {}, id: "msg.reversed-g" }]));
    await until(() => got.length === 3);
    await other.stop();
    await holder.stop();
    expect(got.map((m) => m.id)).toEqual(["msg.renews", "msg.approved-g", "msg.reversed-g"]);
  });
});
