import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import type { Db } from "@cardhold/db";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import type { IncomingMessage } from "./bus";
import { handleBatchOnce, handleOnce } from "./inbox";
import { createMemoryBus } from "./memory-bus";
import { migrateMessaging } from "./messaging-tables";
import { createOutboxRelay, enqueue } from "./outbox";

const logger = pino({ level: "silent" });
let server: TestDatabase;
let db: Db;

beforeAll(async () => {
  server = await createTestDatabase();
  db = server.db;
  await migrateMessaging(db, "svc");
  await db.query("CREATE TABLE svc.things (id text PRIMARY KEY)");
});
afterAll(async () => {
  await server.stop();
});

describe("outbox", () => {
  it("publishes only committed messages, in commit order, once", async () => {
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    await db.tx(async (c) => {
      await c.query("INSERT INTO svc.things VALUES ('a')");
      await enqueue(c, "svc", [
        { topic: "things.v1", key: "a", value: { step: 1 } },
        { topic: "things.v1", key: "a", value: { step: 2 } },
      ]);
    });
    await db
      .tx(async (c) => {
        await enqueue(c, "svc", [{ topic: "things.v1", key: "b", value: { rolledBack: true } }]);
        throw new Error("abort");
      })
      .catch(() => undefined);

    const relay = createOutboxRelay({ db, schema: "svc", bus, logger, idleMs: 20 });
    relay.start();
    await waitFor(() => got.length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    await relay.stop();
    expect(got.map((m) => m.value)).toEqual([{ step: 1 }, { step: 2 }]);
    const { rows } = await db.query("SELECT count(*)::int AS n FROM svc.outbox");
    expect(rows[0]?.n).toBe(0);
  });

  it("reads back from the table exactly the values and headers written, whatever characters they hold", async () => {
    const values: unknown[] = [
      { quote: 'say "hi"', backslash: "C:\\dir\\", unicode: "naïve ₦ 😀", newline: "a\nb", nested: [{ n: 1 }, null] },
      null,
      'a bare string with "quotes" and a comma, and } braces {',
      12345678901234,
    ];
    await db.tx((c) =>
      enqueue(
        c,
        "svc",
        values.map((value, i) => ({
          topic: "exact.v1",
          key: `k"${i}\\`,
          value,
          id: `msg.exact${i}`,
          headers: { note: `"quoted" \\ ₦ ${i}` },
        })),
      ),
    );
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["exact.v1"], handler: async (m) => void got.push(m) });
    const relay = createOutboxRelay({ db, schema: "svc", bus, logger, idleMs: 20 });
    relay.start();
    await waitFor(() => got.length >= values.length);
    await relay.stop();
    expect(got.map((m) => [m.id, m.key, m.value, m.headers?.note])).toEqual(
      values.map((value, i) => [`msg.exact${i}`, `k"${i}\\`, value, `"quoted" \\ ₦ ${i}`]),
    );
  });

  it("a message left unpublished by a crash is published by the next relay", async () => {
    await db.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "c", value: { late: true }, id: "msg.crash1" }]));
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    await db.query("DELETE FROM svc.outbox_relay_lease");
    const relay = createOutboxRelay({ db, schema: "svc", bus, logger, idleMs: 20 });
    relay.start();
    await waitFor(() => got.some((m) => m.id === "msg.crash1"));
    await relay.stop();
    expect(got.filter((m) => m.id === "msg.crash1")).toHaveLength(1);
  });

  it("publishes what a transaction hands over right after its commit, without reading it back, and deletes it", async () => {
    await db.query("DELETE FROM svc.outbox_relay_lease");
    // Left by a crashed run: published first, before anything handed over.
    await db.tx((c) =>
      c.query(`INSERT INTO svc.outbox (id, topic, key, value) VALUES ('msg.left', 'things.v1', 'h', '{"left":true}')`),
    );
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    const relay = createOutboxRelay({ db, schema: "svc", bus, logger, idleMs: 60_000 });
    relay.start();
    await waitFor(() => got.length === 1); // the start's read is done; the next one is a minute away
    await db.tx((c) =>
      enqueue(c, "svc", [
        { topic: "things.v1", key: "h", value: { at: new Date("2026-01-01T00:00:00Z") }, id: "msg.h1" },
      ]),
    );
    await db.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "h", value: { n: 2 }, id: "msg.h2" }]));
    await waitFor(() => got.length >= 3, 2_000);
    await relay.stop();
    expect(got.map((m) => m.id)).toEqual(["msg.left", "msg.h1", "msg.h2"]);
    // As it would come back from the table: JSON, so a Date is its ISO text.
    expect(got[1]!.value).toEqual({ at: "2026-01-01T00:00:00.000Z" });
    const { rows } = await db.query("SELECT count(*)::int AS n FROM svc.outbox WHERE id LIKE 'msg.h%'");
    expect(rows[0]?.n).toBe(0);
  });

  it("a rolled-back transaction hands nothing over", async () => {
    await db.query("DELETE FROM svc.outbox_relay_lease");
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    const relay = createOutboxRelay({ db, schema: "svc", bus, logger, idleMs: 60_000 });
    relay.start();
    await db
      .tx(async (c) => {
        await enqueue(c, "svc", [{ topic: "things.v1", key: "r", value: {}, id: "msg.rolled-back" }]);
        throw new Error("abort");
      })
      .catch(() => undefined);
    await db.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "r", value: {}, id: "msg.kept" }]));
    await waitFor(() => got.some((m) => m.id === "msg.kept"), 2_000);
    await relay.stop();
    expect(got.map((m) => m.id)).not.toContain("msg.rolled-back");
  });

  it("a second relay does not publish while another holds the lease", async () => {
    await db.query("DELETE FROM svc.outbox_relay_lease");
    await db.query("INSERT INTO svc.outbox_relay_lease VALUES ('relay', 'someone-else', now() + interval '1 hour')");
    await db.tx((c) => enqueue(c, "svc", [{ topic: "things.v1", key: "d", value: {} }]));
    const bus = createMemoryBus();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "g", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    const relay = createOutboxRelay({ db, schema: "svc", bus, logger, idleMs: 20 });
    relay.start();
    await new Promise((r) => setTimeout(r, 200));
    await relay.stop();
    expect(got).toHaveLength(0);
    await db.query("DELETE FROM svc.outbox_relay_lease");
  });
});

describe("inbox", () => {
  it("applies a message's effects once however often it is delivered", async () => {
    const message: IncomingMessage = {
      id: "msg.once",
      topic: "t",
      key: "k",
      value: {},
      headers: {},
      partition: 0,
      offset: "0",
    };
    const apply = (c: { query: Db["query"] }) =>
      c.query("INSERT INTO svc.things VALUES ('from-inbox')").then(() => undefined);
    expect(await handleOnce(db, "svc", "consumer-a", message, apply)).toBe(true);
    expect(await handleOnce(db, "svc", "consumer-a", message, apply)).toBe(false);
    const { rows } = await db.query("SELECT count(*)::int AS n FROM svc.things WHERE id = 'from-inbox'");
    expect(rows[0]?.n).toBe(1);
  });

  it("records nothing when the handler fails, so the redelivery is handled", async () => {
    const message: IncomingMessage = {
      id: "msg.fail",
      topic: "t",
      key: "k",
      value: {},
      headers: {},
      partition: 0,
      offset: "1",
    };
    await expect(handleOnce(db, "svc", "c", message, async () => Promise.reject(new Error("x")))).rejects.toThrow();
    expect(await handleOnce(db, "svc", "c", message, async () => undefined)).toBe(true);
  });
});

describe("inbox batches", () => {
  it("handles only the messages not seen before, once each, in one transaction", async () => {
    const m = (id: string): IncomingMessage => ({
      id,
      topic: "t",
      key: "k",
      value: {},
      headers: {},
      partition: 0,
      offset: "0",
    });
    await handleOnce(db, "svc", "batcher", m("msg.b1"), async () => undefined);
    const seen: string[] = [];
    const fresh = await handleBatchOnce(
      db,
      "svc",
      "batcher",
      [m("msg.b1"), m("msg.b2"), m("msg.b2"), m("msg.b3")],
      async (_c, list) => {
        seen.push(...list.map((x) => x.id));
      },
    );
    expect(seen).toEqual(["msg.b2", "msg.b3"]);
    expect(fresh.map((x) => x.id)).toEqual(["msg.b2", "msg.b3"]);
    await expect(
      handleBatchOnce(db, "svc", "batcher", [m("msg.b4")], async () => Promise.reject(new Error("x"))),
    ).rejects.toThrow();
    expect(
      (await handleBatchOnce(db, "svc", "batcher", [m("msg.b4")], async () => undefined)).map((x) => x.id),
    ).toEqual(["msg.b4"]);
  });
});

async function waitFor(predicate: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
