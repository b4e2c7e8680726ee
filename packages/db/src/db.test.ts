import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitOutcomeUnknown, createDb, ONE_OFF, type Db } from "./db";
import { createTestDatabase, type TestDatabase } from "./testing";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 1 });
});
afterAll(async () => {
  await db.close();
  await database.stop();
});

const preparedHere = async () =>
  (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements")).rows[0]!.n;

describe("statements", () => {
  it("prepares a parameterised statement once per connection, and never one marked ONE_OFF", async () => {
    const before = await preparedHere();
    for (let i = 0; i < 3; i++) expect((await db.query("SELECT $1::int + 1 AS n", [i])).rows[0]).toEqual({ n: i + 1 });
    expect(await preparedHere()).toBe(before + 1);
    for (let i = 0; i < 3; i++) await db.query(`${ONE_OFF}SELECT $1::int + ${i} AS n`, [i]);
    expect(await preparedHere()).toBe(before + 1);
  });

  it("commits bookkeeping on a session that does not wait for the disk; other commits keep the server's setting", async () => {
    const SQL = "SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'";
    expect((await db.bookkeeping(SQL)).rows[0]).toEqual({ setting: "off", source: "client" });
    expect((await db.tx((tx) => tx.query(SQL), { durable: false })).rows[0]).toEqual({
      setting: "off",
      source: "client",
    });
    expect((await db.query(SQL)).rows[0]!.source).not.toBe("client");
    expect((await db.tx((tx) => tx.query(SQL))).rows[0]!.source).not.toBe("client");
  });
});

describe("commit notes", () => {
  it("reach every listener once the transaction committed, never when it rolled back; a failing listener changes nothing", async () => {
    const heard: unknown[][] = [];
    const stop = db.onCommit((notes) => void heard.push(notes));
    const stopFailing = db.onCommit(() => {
      throw new Error("listener bug");
    });
    const result = await db.tx(async (tx) => {
      tx.afterCommit("first");
      tx.afterCommit("second");
      expect(heard).toEqual([]);
      return "committed";
    });
    expect(result).toBe("committed");
    await db
      .tx(async (tx) => {
        tx.afterCommit("rolled back");
        throw new Error("abort");
      })
      .catch(() => undefined);
    await db.tx(async () => undefined);
    expect(heard).toEqual([["first", "second"]]);
    stop();
    stopFailing();
    await db.tx(async (tx) => tx.afterCommit("after unsubscribe"));
    expect(heard).toHaveLength(1);
  });
});

describe("a commit whose outcome is unknown", () => {
  beforeAll(async () => {
    await db.query(`
      CREATE TABLE IF NOT EXISTS commit_probe (id int, drop_connection boolean);
      CREATE TABLE IF NOT EXISTS commit_unique (id int UNIQUE DEFERRABLE INITIALLY DEFERRED);
      CREATE OR REPLACE FUNCTION commit_probe_drop() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.drop_connection THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NULL; END $$;
      DROP TRIGGER IF EXISTS commit_probe_drop ON commit_probe;
      CREATE CONSTRAINT TRIGGER commit_probe_drop AFTER INSERT ON commit_probe DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION commit_probe_drop();`);
  });

  it("the connection ended during COMMIT: the notes go to the unknown-outcome listeners, not the committed ones", async () => {
    const committed: unknown[][] = [];
    const unknown: unknown[][] = [];
    const stops = [db.onCommit((n) => void committed.push(n)), db.onCommitUnknown((n) => void unknown.push(n))];
    // The deferred trigger runs inside COMMIT and ends its own session there, as a server killed mid-commit would.
    const failed = await db
      .tx(async (tx) => {
        tx.afterCommit("outbox rows");
        await tx.query("INSERT INTO commit_probe VALUES ($1, $2)", [1, true]);
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(failed).toMatchObject({ code: "57P01" });
    await db.tx(async (tx) => {
      tx.afterCommit("next");
      await tx.query("INSERT INTO commit_probe VALUES ($1, $2)", [2, false]);
    });
    for (const stop of stops) stop();
    expect(unknown).toEqual([["outbox rows"]]);
    expect(committed).toEqual([["next"]]);
  });

  it("the server answered the COMMIT with an error (a deferred constraint): rolled back, nobody is told", async () => {
    const told: unknown[][] = [];
    const stops = [db.onCommit((n) => void told.push(n)), db.onCommitUnknown((n) => void told.push(n))];
    await db.query("DELETE FROM commit_unique");
    const failed = await db
      .tx(async (tx) => {
        tx.afterCommit("never");
        await tx.query("INSERT INTO commit_unique VALUES (1), (1)");
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    for (const stop of stops) stop();
    expect(failed).toMatchObject({ code: "23505" });
    expect(told).toEqual([]);
  });

  const serverAnswer = (code: string) =>
    Object.assign(new pg.DatabaseError("the server said no", 0, "error"), { code });
  it.each([
    ["no answer (connection reset)", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }), true],
    ["no answer (broken pipe, a five-letter errno)", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }), true],
    ["connection terminated", new Error("Connection terminated unexpectedly"), true],
    ["admin shutdown", serverAnswer("57P01"), true],
    ["connection failure", serverAnswer("08006"), true],
    ["serialization failure", serverAnswer("40001"), false],
    ["deferred unique violation", serverAnswer("23505"), false],
  ])("%s: unknown %s", (_name, error, unknown) => expect(commitOutcomeUnknown(error)).toBe(unknown));
});

describe("transactions", () => {
  beforeAll(async () => {
    await db.query("CREATE TABLE IF NOT EXISTS tx_probe (id int PRIMARY KEY)");
  });
  const ids = async () => (await db.query<{ id: number }>("SELECT id FROM tx_probe ORDER BY id")).rows.map((r) => r.id);

  it("a statement that failed inside the transaction (its error caught there) fails the commit instead of vanishing", async () => {
    await db.tx((tx) => tx.query("INSERT INTO tx_probe VALUES ($1)", [1]));
    const swallowed = db.tx(async (tx) => {
      await tx.query("INSERT INTO tx_probe VALUES ($1)", [4]);
      await tx.query("INSERT INTO tx_probe VALUES ($1)", [1]).catch(() => undefined);
    });
    await expect(swallowed).rejects.toThrow(/rolled back at its commit/);
    expect(await ids()).toEqual([1]);
  });
});

describe("waiting for a connection", () => {
  it("an urgent transaction gets the pool's connection before ordinary work that asked for it first", async () => {
    const order: string[] = [];
    let letGo!: () => void;
    const holding = db.tx(() => new Promise<void>((resolve) => (letGo = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ordinaryQuery = db.query("SELECT 1").then(() => order.push("ordinary query"));
    const ordinaryTx = db.tx((tx) => tx.query("SELECT 1")).then(() => order.push("ordinary transaction"));
    const urgentTx = db.tx((tx) => tx.query("SELECT 1"), { urgent: true }).then(() => order.push("urgent"));
    expect(db.waitingForConnection()).toEqual({ urgent: 1, ordinary: 2 });
    letGo();
    await Promise.all([holding, ordinaryQuery, ordinaryTx, urgentTx]);
    expect(order).toEqual(["urgent", "ordinary query", "ordinary transaction"]);
    expect(db.waitingForConnection()).toEqual({ urgent: 0, ordinary: 0 });
  });

  it("a connection whose query failed goes back to the pool and serves the next one", async () => {
    await expect(db.query("SELECT 1/0")).rejects.toThrow(/division by zero/);
    expect((await db.query<{ n: number }>("SELECT $1::int AS n", [7])).rows[0]).toEqual({ n: 7 });
  });
});
