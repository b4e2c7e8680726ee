import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type Db, type EmbeddedPostgres } from "@cardhold/db";
import { compileCountQuery, compileCursorCheck, compileListQuery } from "./compile-sql";
import { finishPage } from "./page";
import { parseListQuery } from "./parse-params";
import { thingResource } from "./test-resource";

interface Thing {
  id: string;
  business_id: string;
  mode: string;
  name: string;
  amount: number;
  active: boolean;
  created_at: Date;
  tags: string[];
  metadata: Record<string, unknown>;
  customer: string | null;
}

const SCOPE = { businessId: "bus.one", mode: "test" };
const BASE = Date.parse("2023-03-14T00:00:00.000Z");
const NAMES = ["Ada", "Bola", "ada obi", "Chidi", 'Say "hi"'];
let pg: EmbeddedPostgres;
let db: Db;
const rows: Thing[] = [];

function makeThing(i: number): Thing {
  return {
    id: `t.${String(i).padStart(3, "0")}`,
    business_id: i % 10 === 9 ? "bus.two" : "bus.one",
    mode: i % 10 === 8 ? "live" : "test",
    name: NAMES[i % NAMES.length]!,
    amount: (i * 37) % 100,
    active: i % 3 === 0,
    created_at: new Date(BASE + Math.floor(i / 2) * 60_000),
    tags: i % 4 === 0 ? ["a", "b"] : i % 4 === 1 ? ["b"] : i % 4 === 2 ? ["c"] : [],
    metadata: { userId: i % 7 === 0 ? String(i) : i, tier: i % 2 === 0 ? "gold" : "silver", nested: { level: i % 3 }, ...(i % 5 === 0 ? { flag: true } : {}) },
    customer: i % 6 === 0 ? null : `cus.${i % 4}`,
  };
}

async function insert(thing: Thing) {
  await db.query(
    `INSERT INTO q.things (id, business_id, mode, name, amount, active, created_at, tags, metadata, customer, secret)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'hidden')`,
    [thing.id, thing.business_id, thing.mode, thing.name, thing.amount, thing.active, thing.created_at,
      JSON.stringify(thing.tags), thing.metadata, thing.customer],
  );
}

beforeAll(async () => {
  pg = await startEmbeddedPostgres();
  db = pg.db;
  await db.query("CREATE SCHEMA q");
  await db.query(`CREATE TABLE q.things (id text PRIMARY KEY, business_id text NOT NULL, mode text NOT NULL, name text NOT NULL,
    amount int8 NOT NULL, active boolean NOT NULL, created_at timestamptz NOT NULL, tags jsonb NOT NULL, metadata jsonb NOT NULL,
    customer text, secret text)`);
  for (let i = 0; i < 50; i++) {
    rows.push(makeThing(i));
    await insert(rows.at(-1)!);
  }
});
afterAll(async () => {
  await pg?.stop();
});

const inScope = (t: Thing) => t.business_id === SCOPE.businessId && t.mode === SCOPE.mode;

async function ids(raw: Record<string, unknown>): Promise<string[]> {
  const q = parseListQuery({ limit: "50", ...raw }, thingResource);
  const { text, values } = compileListQuery(q, thingResource, SCOPE);
  const result = await db.query<Thing & Record<string, unknown>>(text, values);
  return finishPage(result.rows, q).data.map((r) => r.id).sort();
}

const expected = (predicate: (t: Thing) => boolean) => rows.filter((t) => inScope(t) && predicate(t)).map((t) => t.id).sort();
const num = (t: Thing) => t.metadata.userId;

describe("every operator returns exactly the matching rows of the caller's business and mode", () => {
  const T = (iso: string) => Date.parse(iso);
  it.each<[string, (t: Thing) => boolean]>([
    ["name:Ada", (t) => t.name === "Ada"],
    ["name=Ada", (t) => t.name === "Ada"],
    ["-name:Ada", (t) => t.name !== "Ada"],
    ["name!=Ada", (t) => t.name !== "Ada"],
    ['name:"ada obi"', (t) => t.name === "ada obi"],
    ["name:<ada obi>", (t) => t.name === "ada obi"],
    ['name:"Say \\"hi\\""', (t) => t.name === 'Say "hi"'],
    ["amount>50", (t) => t.amount > 50],
    ["amount|gte|50", (t) => t.amount >= 50],
    ["amount<10", (t) => t.amount < 10],
    ["amount<=10", (t) => t.amount <= 10],
    ["amount|in|0,37,74", (t) => [0, 37, 74].includes(t.amount)],
    ["amount|nin|0,37,74", (t) => ![0, 37, 74].includes(t.amount)],
    ["name~^ada", (t) => /^ada/i.test(t.name)],
    ["-name~^ada", (t) => !/^ada/i.test(t.name)],
    ["name|in|Ada,Chidi", (t) => ["Ada", "Chidi"].includes(t.name)],
    ["name|nin|Ada,Chidi", (t) => !["Ada", "Chidi"].includes(t.name)],
    ["name>Chidi", (t) => t.name > "Chidi"],
    ["active:true", (t) => t.active],
    ["active!=true", (t) => !t.active],
    ["createdAt|gtd|2023-03-14T00:10:00Z", (t) => t.created_at.getTime() > T("2023-03-14T00:10:00Z")],
    ["createdAt|gted|2023-03-14T00:10:00Z", (t) => t.created_at.getTime() >= T("2023-03-14T00:10:00Z")],
    ["createdAt|ltd|2023-03-14T00:10:00Z", (t) => t.created_at.getTime() < T("2023-03-14T00:10:00Z")],
    ["createdAt|lted|2023-03-14T00:10:00Z", (t) => t.created_at.getTime() <= T("2023-03-14T00:10:00Z")],
    [`createdAt>=${T("2023-03-14T00:20:00Z")}`, (t) => t.created_at.getTime() >= T("2023-03-14T00:20:00Z")],
    ["tags:b", (t) => t.tags.includes("b")],
    ["tags!=b", (t) => !t.tags.includes("b")],
    ["tags|all|a,b", (t) => t.tags.includes("a") && t.tags.includes("b")],
    ["tags|in|a,c", (t) => t.tags.some((x) => ["a", "c"].includes(x))],
    ["tags|nin|a,c", (t) => !t.tags.some((x) => ["a", "c"].includes(x))],
    ["tags|size|1", (t) => t.tags.length === 1],
    ["tags|nsize|0", (t) => t.tags.length !== 0],
    ["metadata.tier:gold", (t) => t.metadata.tier === "gold"],
    ["metadata.userId:14", (t) => String(num(t)) === "14"],
    ["metadata.userId:13", (t) => num(t) === 13],
    ["metadata.userId>40", (t) => typeof num(t) === "number" && (num(t) as number) > 40],
    ["metadata.userId|in|3,14,22", (t) => ["3", "14", "22"].includes(String(num(t)))],
    ["metadata.nested.level:2", (t) => (t.metadata.nested as { level: number }).level === 2],
    ["metadata.flag|exists|true", (t) => "flag" in t.metadata],
    ["metadata.flag|exists|false", (t) => !("flag" in t.metadata)],
    ["metadata.tier~^SIL", (t) => t.metadata.tier === "silver"],
    ["-metadata.tier:gold", (t) => t.metadata.tier !== "gold"],
    ["customer:cus.1", (t) => t.customer === "cus.1"],
    ["customer.id:cus.1", (t) => t.customer === "cus.1"],
    ["customer|exists|false", (t) => t.customer === null],
    ["name:Ada amount>30", (t) => t.name === "Ada" && t.amount > 30],
  ])("%s", async (filter, predicate) => {
    expect(await ids({ filter })).toEqual(expected(predicate));
  });

  it("combines or, nor and and with filter", async () => {
    expect(await ids({ or: "name:Ada name:Chidi" })).toEqual(expected((t) => t.name === "Ada" || t.name === "Chidi"));
    expect(await ids({ nor: "name:Ada name:Chidi" })).toEqual(expected((t) => !(t.name === "Ada" || t.name === "Chidi")));
    expect(await ids({ filter: "active:true", or: "tags:a tags:c", and: "amount>10" })).toEqual(
      expected((t) => t.active && (t.tags.includes("a") || t.tags.includes("c")) && t.amount > 10),
    );
  });

  it("counts with the same filters", async () => {
    const q = parseListQuery({ filter: "tags:b", countTotal: "" }, thingResource);
    const { text, values } = compileCountQuery(q, thingResource, SCOPE);
    expect((await db.query<{ count: number }>(text, values)).rows[0]!.count).toBe(expected((t) => t.tags.includes("b")).length);
  });

  it("never lets values reach the SQL: injection strings match nothing and harm nothing", async () => {
    const attacks = ["'; DROP TABLE q.things; --", "$1", "\\'", "1 OR 1=1", "' OR ''='", "\u0000x", "ä'); SELECT pg_sleep(1); --"];
    for (const attack of attacks) {
      const quoted = `"${attack.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
      for (const filter of [`name:${quoted}`, `metadata.tier:${quoted}`, `tags:${quoted}`, `name|in|${attack.replace(/[\s,]/g, "")}x`, `metadata.a:${quoted}`]) {
        if (filter.includes("\u0000")) continue;
        expect(await ids({ filter })).toEqual([]);
      }
    }
    expect((await db.query("SELECT count(*)::int AS n FROM q.things")).rows[0]!.n).toBe(50);
  });
});

async function page(raw: Record<string, unknown>) {
  const q = parseListQuery(raw, thingResource);
  const check = compileCursorCheck(q, thingResource, SCOPE);
  if (check) expect((await db.query(check.text, check.values)).rowCount).toBe(1);
  const { text, values } = compileListQuery(q, thingResource, SCOPE);
  return finishPage((await db.query<Thing & Record<string, unknown>>(text, values)).rows, q);
}

function sortedIds(sort: string): string[] {
  const keys = sort.split(" ").filter(Boolean).map((k) => ({ field: k.replace("-", ""), desc: k.startsWith("-") }));
  if (keys.length === 0) keys.push({ field: "createdAt", desc: true });
  const last = keys.at(-1)!;
  keys.push({ field: "id", desc: last.desc });
  const value = (t: Thing, f: string) => (f === "createdAt" ? t.created_at.getTime() : (t as unknown as Record<string, string | number>)[f]!);
  return rows
    .filter(inScope)
    .sort((a, b) => {
      for (const k of keys) {
        const x = value(a, k.field);
        const y = value(b, k.field);
        if (x !== y) return (x < y ? -1 : 1) * (k.desc ? -1 : 1);
      }
      return 0;
    })
    .map((t) => t.id);
}

describe("cursor paging under any sort", () => {
  it.each(["", "name", "-amount", "name -amount", "-createdAt", "createdAt", "amount name"])(
    "walking forward with after (sort %j) returns every record once, in order; before walks back",
    async (sort) => {
      const order = sortedIds(sort);
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const p = await page({ sort, limit: "7", ...(after ? { after } : {}) });
        seen.push(...p.data.map((r) => r.id));
        if (!p.metadata.hasMore) break;
        after = p.data.at(-1)!.id;
      }
      expect(seen).toEqual(order);

      const back: string[] = [];
      let before: string | undefined = order.at(-1);
      for (;;) {
        const p = await page({ sort, limit: "7", before });
        back.unshift(...p.data.map((r) => r.id));
        if (p.data.length < 7) break;
        before = p.data[0]!.id;
      }
      expect(back).toEqual(order.slice(0, -1));
    },
  );

  it("stays complete while newer records are being added", async () => {
    const order = sortedIds("");
    const seen: string[] = [];
    let after: string | undefined;
    let added = 100;
    for (;;) {
      const p = await page({ limit: "5", ...(after ? { after } : {}) });
      seen.push(...p.data.map((r) => r.id));
      const fresh = { ...makeThing(0), id: `t.${added++}`, created_at: new Date() };
      await insert(fresh);
      if (!p.metadata.hasMore) break;
      after = p.data.at(-1)!.id;
    }
    expect(seen).toEqual(order);
    await db.query("DELETE FROM q.things WHERE id >= 't.100'");
  });

  it("hasMore is true exactly when the page is full; an unknown or foreign cursor is detectable", async () => {
    const count = rows.filter(inScope).length;
    expect((await page({ limit: String(count) })).metadata.hasMore).toBe(true);
    expect((await page({ limit: String(count + 1) })).metadata.hasMore).toBe(false);
    for (const after of ["t.999", "t.009"]) {
      const q = parseListQuery({ after }, thingResource);
      const check = compileCursorCheck(q, thingResource, SCOPE)!;
      expect((await db.query(check.text, check.values)).rowCount).toBe(0);
    }
  });
});
