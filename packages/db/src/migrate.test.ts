import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, PG_UNIQUE_VIOLATION, pgErrorCode } from "./db";
import { createTestDatabase, type TestDatabase } from "./testing";
import { migrate, type Migration } from "./migrate";

let pgServer: TestDatabase;
let db: Db;

beforeAll(async () => {
  pgServer = await createTestDatabase();
  db = pgServer.db;
});
afterAll(async () => {
  await pgServer.stop();
});

const first: Migration = { version: 1, name: "things", sql: "CREATE TABLE demo.things (id text PRIMARY KEY, n int8)" };
const second: Migration = { version: 2, name: "more", sql: "ALTER TABLE demo.things ADD COLUMN note text" };

describe("migrate", () => {
  it("applies pending migrations once and records them", async () => {
    expect(await migrate(db, "demo", [first])).toEqual([1]);
    expect(await migrate(db, "demo", [first, second])).toEqual([2]);
    expect(await migrate(db, "demo", [first, second])).toEqual([]);
    const { rows } = await db.query("SELECT version, name FROM demo.schema_migrations ORDER BY version");
    expect(rows).toEqual([
      { version: 1, name: "things" },
      { version: 2, name: "more" },
    ]);
  });

  it("refuses to start when an applied migration was edited", async () => {
    await expect(migrate(db, "demo", [{ ...first, sql: first.sql + " -- edited" }])).rejects.toThrow(/was changed/);
  });

  it("rolls back a failing migration entirely", async () => {
    const bad: Migration = {
      version: 3,
      name: "bad",
      sql: "CREATE TABLE demo.half (id int); SELECT nope_no_such_fn()",
    };
    await expect(migrate(db, "demo", [first, second, bad])).rejects.toThrow();
    const { rows } = await db.query("SELECT to_regclass('demo.half') AS t");
    expect(rows[0]?.t).toBeNull();
  });

  it("rejects a schema name that is not a plain identifier", async () => {
    await expect(migrate(db, "demo; DROP SCHEMA demo", [first])).rejects.toThrow(/bad schema name/);
  });
});

describe("db", () => {
  it("parses int8 as exact numbers and reports unique violations by code", async () => {
    await db.query("INSERT INTO demo.things (id, n) VALUES ('a', 9007199254740991)");
    const { rows } = await db.query<{ n: number }>("SELECT n FROM demo.things WHERE id = 'a'");
    expect(rows[0]?.n).toBe(Number.MAX_SAFE_INTEGER);
    const dup = await db.query("INSERT INTO demo.things (id) VALUES ('a')").catch((e: unknown) => e);
    expect(pgErrorCode(dup)).toBe(PG_UNIQUE_VIOLATION);
  });

  it("rolls back a transaction that throws", async () => {
    await expect(
      db.tx(async (c) => {
        await c.query("INSERT INTO demo.things (id) VALUES ('b')");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const { rowCount } = await db.query("SELECT 1 FROM demo.things WHERE id = 'b'");
    expect(rowCount).toBe(0);
  });
});
