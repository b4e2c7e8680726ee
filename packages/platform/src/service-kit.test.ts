import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryBus, enqueue, migrateMessaging, outboxInsert, type IncomingMessage } from "@cardhold/bus";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createMetrics } from "./metrics";
import { serviceOutboxRelay, type ServiceDeps } from "./service-kit";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 4 });
  for (const schema of ["sole", "shared", "sole_deletes"]) await migrateMessaging(database.db, schema);
});
afterAll(async () => {
  await database?.stop();
});

/** A row committed where no relay hears of it (as when a commit's answer was lost): only a read of the table finds it. */
async function commitUnannounced(schema: string, id: string) {
  const insert = outboxInsert(schema, [{ id, topic: "things.v1", key: id, value: { id } }]);
  await database.db.query(insert.text, insert.values);
}

/** How long after a row nobody announced the service's relay publishes it (ms), or undefined within `withinMs`. */
async function recoveredAfter(soleInstance: boolean, withinMs: number): Promise<number | undefined> {
  const schema = soleInstance ? "sole" : "shared";
  const bus = createMemoryBus();
  await bus.start();
  const got: IncomingMessage[] = [];
  await bus.subscribe({ group: schema, topics: ["things.v1"], handler: async (m) => void got.push(m) });
  const deps = { db: database.db, bus, logger: pino({ level: "silent" }), metrics: createMetrics(schema, false) };
  const relay = serviceOutboxRelay({ ...deps, internalToken: "t", soleInstance } as ServiceDeps, schema);
  relay.start();
  await new Promise((r) => setTimeout(r, 300)); // its first read of the table, at start, is done
  const committedAt = Date.now();
  await commitUnannounced(schema, `${schema}-late`);
  while (got.length === 0 && Date.now() - committedAt < withinMs) await new Promise((r) => setTimeout(r, 20));
  await relay.stop();
  await bus.stop();
  return got.length > 0 ? Date.now() - committedAt : undefined;
}

describe("a service's outbox relay", () => {
  it("reads its table twice a second while other instances may share the database", async () => {
    expect(await recoveredAfter(false, 2_000)).toBeLessThan(1_000);
  });

  it("alone on its database, reads the table once every 5 s: a row nobody announced still goes out", async () => {
    const after = await recoveredAfter(true, 7_000);
    expect(after).toBeGreaterThan(1_000);
    expect(after).toBeLessThan(6_000);
  });

  it("alone, still deletes what it published within a second (the outbox backlog shows what waits, not what went)", async () => {
    const bus = createMemoryBus();
    await bus.start();
    const got: IncomingMessage[] = [];
    await bus.subscribe({ group: "deletes", topics: ["things.v1"], handler: async (m) => void got.push(m) });
    const deps = { db: database.db, bus, logger: pino({ level: "silent" }), metrics: createMetrics("d", false) };
    const relay = serviceOutboxRelay(
      { ...deps, internalToken: "t", soleInstance: true } as ServiceDeps,
      "sole_deletes",
    );
    relay.start();
    await new Promise((r) => setTimeout(r, 300));
    await database.db.tx((tx) => enqueue(tx, "sole_deletes", [{ topic: "things.v1", key: "k", value: { n: 1 } }]));
    await new Promise((r) => setTimeout(r, 1_200));
    const { rows } = await database.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sole_deletes.outbox");
    await relay.stop();
    await bus.stop();
    expect(got).toHaveLength(1);
    expect(rows[0]?.n).toBe(0);
  });
});
