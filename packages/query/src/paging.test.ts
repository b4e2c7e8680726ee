import type { Db } from "@cardhold/db";
import type { TestDatabase } from "@cardhold/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileListQuery } from "./compile-sql";
import { QueryError } from "./errors";
import { parseListQuery } from "./parse-params";
import { makeThing, SCOPE, THINGS, inScope, thingResource, type Thing } from "./test-fixtures";
import { insertThing, readPage, thingsDb } from "./test-db";

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await thingsDb();
  db = database.db;
});
afterAll(async () => {
  await database?.stop();
});

type Value = string | number | boolean | null;
const valueOf = (t: Thing, field: string): Value =>
  field === "createdAt" ? t.created_at.getTime() : ((t as unknown as Record<string, Value>)[field] ?? null);

/** The order PostgreSQL gives (C collation; NULLs last ascending, first descending), id breaking ties. */
function sortedIds(sort: string): string[] {
  const keys = sort
    .split(" ")
    .filter(Boolean)
    .map((k) => ({ field: k.replace(/^-/, ""), desc: k.startsWith("-") }));
  if (keys.length === 0) keys.push({ field: "createdAt", desc: true });
  if (keys.at(-1)!.field !== "id") keys.push({ field: "id", desc: keys.at(-1)!.desc });
  const compare = (x: Value, y: Value): number => {
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  };
  return THINGS.filter(inScope)
    .sort((a, b) => {
      for (const k of keys) {
        const c = compare(valueOf(a, k.field), valueOf(b, k.field));
        if (c !== 0) return k.desc ? -c : c;
      }
      return 0;
    })
    .map((t) => t.id);
}

async function walkForward(sort: string, limit: number, filter?: string): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await readPage(db, {
      sort,
      limit: String(limit),
      ...(filter ? { filter } : {}),
      ...(after ? { after } : {}),
    });
    expect(page.data.length).toBeLessThanOrEqual(limit);
    seen.push(...page.data.map((r) => r.id));
    if (!page.metadata.hasMore) return seen;
    after = page.data.at(-1)!.id;
  }
  throw new Error("the walk did not end");
}

async function walkBackward(sort: string, limit: number, from: string): Promise<string[]> {
  const seen: string[] = [];
  let before = from;
  for (let pages = 0; pages < 100; pages++) {
    const page = await readPage(db, { sort, limit: String(limit), before });
    seen.unshift(...page.data.map((r) => r.id));
    if (!page.metadata.hasMore) return seen;
    before = page.data[0]!.id;
  }
  throw new Error("the walk did not end");
}

const SORTS = [
  "",
  "-createdAt",
  "createdAt",
  "name",
  "-name",
  "name -amount",
  "-name amount",
  "amount name",
  "active -createdAt",
  "rank",
  "-rank",
  "rank -name",
  "-rank name",
  "id",
  "-id",
];

describe("cursor paging returns every item exactly once, in order, under any sort", () => {
  it.each(SORTS)("sort %j: forward with after, backward with before", async (sort) => {
    const order = sortedIds(sort);
    expect(order).toHaveLength(40);
    for (const limit of [7, 8, 1]) {
      expect(await walkForward(sort, limit)).toEqual(order);
      expect(await walkBackward(sort, limit, order.at(-1)!)).toEqual(order.slice(0, -1));
    }
    // from the middle, both ways
    const middle = order[17]!;
    expect((await readPage(db, { sort, after: middle, limit: "50" })).data.map((r) => r.id)).toEqual(order.slice(18));
    expect((await readPage(db, { sort, before: middle, limit: "50" })).data.map((r) => r.id)).toEqual(
      order.slice(0, 17),
    );
    expect((await readPage(db, { sort, before: middle, limit: "5" })).data.map((r) => r.id)).toEqual(
      order.slice(12, 17),
    );
  });

  it("pages through filtered results", async () => {
    const order = sortedIds("name -amount").filter((id) => THINGS.find((t) => t.id === id)!.tags.includes("b"));
    expect(await walkForward("name -amount", 3, "tags:b")).toEqual(order);
  });

  it.each(["", "name -amount", "-rank name", "id"])(
    "sort %j: page (from 0) of limit items reads the same order, page after page",
    async (sort) => {
      const seen: string[] = [];
      for (let page = 0; page < 100; page++) {
        const read = await readPage(db, { sort, limit: "7", page: String(page) });
        seen.push(...read.data.map((r) => r.id));
        if (!read.metadata.hasMore) break;
      }
      expect(seen).toEqual(sortedIds(sort));
    },
  );

  it("hasMore is true exactly when the page is full: an exactly full last page is followed by an empty one", async () => {
    expect((await readPage(db, { limit: "40" })).metadata.hasMore).toBe(true);
    expect((await readPage(db, { limit: "41" })).metadata.hasMore).toBe(false);
    const last = sortedIds("").at(-1)!;
    expect(await readPage(db, { after: last })).toEqual({ data: [], metadata: { hasMore: false } });
  });

  it("stays complete while newer items are being added", async () => {
    const order = sortedIds("");
    const seen: string[] = [];
    let after: string | undefined;
    let added = 100;
    for (;;) {
      const page = await readPage(db, { limit: "6", ...(after ? { after } : {}) });
      seen.push(...page.data.map((r) => r.id));
      await insertThing(db, { ...makeThing(0), id: `t.${added++}`, created_at: new Date() });
      if (!page.metadata.hasMore) break;
      after = page.data.at(-1)!.id;
    }
    expect(seen).toEqual(order);
    await db.query("DELETE FROM q.things WHERE id >= 't.100'");
  });
});

describe("a cursor that is not an item of the caller's business and mode", () => {
  it.each([
    ["t.999", "unknown"],
    ["t.009", "another business"],
    ["t.008", "another mode"],
  ])("%s (%s) is a 400, never wrong rows", async (cursor) => {
    for (const key of ["after", "before"]) {
      await expect(readPage(db, { [key]: cursor })).rejects.toBeInstanceOf(QueryError);
      // Without the check the page query alone returns nothing, never a wrong page.
      const q = parseListQuery({ [key]: cursor, sort: "name -amount" }, thingResource);
      const { text, values } = compileListQuery(q, thingResource, SCOPE);
      expect((await db.query(text, values)).rows).toEqual([]);
    }
  });
});
