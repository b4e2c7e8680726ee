import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { createDb, type Db } from "@cardhold/db";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import type { IncomingMessage } from "./bus";
import { createMemoryBus } from "./memory-bus";
import { migrateMessaging, outboxChannel } from "./messaging-tables";
import { createOutboxRelay, enqueue, type OutboxRelay } from "./outbox";

const logger = pino({ level: "silent" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: TestDatabase;
/** Two instances of one service, each with its own pool, whose commits NOTIFY the outbox's channel. */
let first: Db;
let second: Db;

beforeAll(async () => {
  server = await createTestDatabase();
  await migrateMessaging(server.db, "svc");
  first = createDb({ url: server.url, poolSize: 2, notifyOutbox: true });
  second = createDb({ url: server.url, poolSize: 2, notifyOutbox: true });
});
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await server?.stop();
});

/** Each table read of the relay on `db` (its DELETE-and-SELECT goes through bookkeeping). */
function countingReads(db: Db) {
  const counter = { reads: 0, db: undefined as unknown as Db };
  counter.db = { ...db, bookkeeping: (text, values) => (counter.reads++, db.bookkeeping(text, values)) };
  return counter;
}

describe("the outbox's NOTIFY", () => {
  it("an insert NOTIFYs the schema's channel only in a session that asks for it", async () => {
    const heard: string[] = [];
    const listener = server.db.listen!(outboxChannel("svc"), () => heard.push("notified"));
    while (!listener.listening()) await sleep(5);
    heard.length = 0; // the call that says the LISTEN is in place
    await server.db.tx((c) => enqueue(c, "svc", [{ topic: "t.v1", key: "k", value: {}, id: "msg.silent" }]));
    await sleep(200);
    expect(heard).toEqual([]);
    await first.tx((c) => enqueue(c, "svc", [{ topic: "t.v1", key: "k", value: {}, id: "msg.loud" }]));
    const deadline = Date.now() + 5_000;
    while (heard.length === 0 && Date.now() < deadline) await sleep(5);
    await listener.close();
    expect(heard).toEqual(["notified"]);
    await server.db.query("DELETE FROM svc.outbox");
  });

  it("the lease holder hears another instance's commit instead of reading the table every few milliseconds", async () => {
    const bus = { ...createMemoryBus(), crossProcess: true };
    const got: Array<{ message: IncomingMessage; at: number }> = [];
    await bus.subscribe({
      group: "g",
      topics: ["things.v1"],
      handler: async (m) => void got.push({ message: m, at: Date.now() }),
    });
    const holderDb = countingReads(first);
    // Idle reads five seconds apart: a row published sooner was heard, not polled for.
    const options = { schema: "svc", bus, logger, idleMs: 5_000, leaseMs: 10_000 };
    const holder = createOutboxRelay({ ...options, db: holderDb.db });
    await holder.announce();
    holder.start();
    const other: OutboxRelay = createOutboxRelay({ ...options, db: second });
    await other.announce(); // waits until the holder has renewed, and so knows it shares the outbox
    other.start();
    await second.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "a", value: {}, id: "msg.first" }]));
    while (got.length < 1) await sleep(5);

    const readsBefore = holderDb.reads;
    await sleep(1_000);
    const idleReads = holderDb.reads - readsBefore;
    const committedAt = Date.now();
    await second.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "b", value: {}, id: "msg.heard" }]));
    const deadline = Date.now() + 4_000;
    while (got.length < 2 && Date.now() < deadline) await sleep(5);
    await other.stop();
    await holder.stop();

    expect(got.map((g) => g.message.id)).toEqual(["msg.first", "msg.heard"]);
    expect(got[1]!.at - committedAt).toBeLessThan(2_500);
    // The 20 ms poll read it about fifty times in that second.
    expect(idleReads).toBeLessThanOrEqual(3);
  });
});
