import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./db";
import { createTestDatabase, type TestDatabase } from "./testing";
import { combineWrites, createWriteBatch } from "./write-batch";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 2 });
  await db.query(`CREATE TABLE parents (id text PRIMARY KEY, n int NOT NULL);
                  CREATE TABLE children (id text PRIMARY KEY, parent_id text NOT NULL REFERENCES parents (id), note text)`);
});

afterAll(async () => {
  await db.close();
  await database.stop();
});

describe("combined writes", () => {
  it("renumbers each write's parameters after the writes before it", () => {
    const combined = combineWrites([
      { text: "INSERT INTO a VALUES ($1, $2::int)", values: ["x", 1] },
      { text: "UPDATE b SET n = $2 WHERE id = $1", values: ["y", 2] },
      { text: "INSERT INTO c SELECT * FROM unnest($1::text[])", values: [["z"]] },
    ]);
    expect(combined.text).toBe(
      "WITH w0 AS (INSERT INTO a VALUES ($1, $2::int)),\nw1 AS (UPDATE b SET n = $4 WHERE id = $3)\nINSERT INTO c SELECT * FROM unnest($5::text[])",
    );
    expect(combined.values).toEqual(["x", 1, "y", 2, ["z"]]);
  });

  it("renumbers a write the same way whenever it comes at the same place, and by its own place each time", () => {
    const update = { text: "UPDATE b SET n = $2 WHERE id = $1", values: ["y", 2] };
    const one = { text: "SELECT $1::int", values: [1] };
    const after = (writes: (typeof one)[]) => combineWrites([...writes, update, one]).text;
    expect(after([one])).toContain("UPDATE b SET n = $3 WHERE id = $2");
    expect(after([one, one])).toContain("UPDATE b SET n = $4 WHERE id = $3");
    expect(after([one])).toContain("UPDATE b SET n = $3 WHERE id = $2");
    expect(after([])).toBe("WITH w0 AS (UPDATE b SET n = $2 WHERE id = $1)\nSELECT $3::int");
  });

  it("refuses a write with WITH clauses of its own", () => {
    expect(() =>
      combineWrites([
        { text: "SELECT 1", values: [] },
        { text: " with x AS (SELECT 1) SELECT 2", values: [] },
      ]),
    ).toThrow(/WITH/);
  });
});

describe("a write batch", () => {
  it("sends a parent and its child in one statement; the foreign key holds", async () => {
    const batch = createWriteBatch();
    batch.defer({ text: "INSERT INTO parents VALUES ($1, $2)", values: ["p1", 1] });
    batch.defer({ text: "INSERT INTO children VALUES ($1, $2, $3)", values: ["c1", "p1", "first"] });
    await batch.flush(db);
    const { rows } = await db.query("SELECT c.id, p.n FROM children c JOIN parents p ON p.id = c.parent_id");
    expect(rows).toEqual([{ id: "c1", n: 1 }]);
    await batch.flush(db); // empty now: nothing is sent
  });

  it("fails whole: a child without its parent leaves nothing behind", async () => {
    const batch = createWriteBatch();
    batch.defer({ text: "INSERT INTO parents VALUES ($1, $2)", values: ["p2", 2] });
    batch.defer({ text: "INSERT INTO children VALUES ($1, $2, $3)", values: ["c2", "nobody", null] });
    await expect(batch.flush(db)).rejects.toMatchObject({ code: "23503" });
    const { rows } = await db.query("SELECT id FROM parents WHERE id = 'p2'");
    expect(rows).toEqual([]);
  });

  it("runs inside the caller's transaction", async () => {
    await db
      .tx(async (tx) => {
        const batch = createWriteBatch();
        batch.defer({ text: "INSERT INTO parents VALUES ($1, $2)", values: ["p3", 3] });
        batch.defer({ text: "UPDATE parents SET n = n + $2 WHERE id = $1", values: ["p1", 10] });
        await batch.flush(tx);
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const { rows } = await db.query("SELECT id, n FROM parents ORDER BY id");
    expect(rows).toEqual([{ id: "p1", n: 1 }]);
  });
});
