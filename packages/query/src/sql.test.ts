import type { Db } from "@cardhold/db";
import type { TestDatabase } from "@cardhold/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileCountQuery, compileListQuery } from "./compile-sql";
import { finishPage } from "./cursor";
import { QueryError } from "./errors";
import { LIST_PARAMETERS, parseListQuery } from "./parse-params";
import { SCOPE, THINGS, inScope, thingResource, type Thing } from "./test-fixtures";
import { readPage, rowCount, thingsDb } from "./test-db";

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await thingsDb();
  db = database.db;
});
afterAll(async () => {
  await database?.stop();
});

async function ids(raw: Record<string, unknown>): Promise<string[]> {
  const q = parseListQuery({ limit: "50", ...raw }, thingResource);
  const { text, values } = compileListQuery(q, thingResource, SCOPE);
  const result = await db.query<{ id: string }>(text, values);
  return finishPage(result.rows, q)
    .data.map((r) => r.id)
    .sort();
}

const expected = (predicate: (t: Thing) => boolean) =>
  THINGS.filter((t) => inScope(t) && predicate(t))
    .map((t) => t.id)
    .sort();

const T = (iso: string) => Date.parse(iso);
const md = (t: Thing, key: string) => t.metadata[key];
const jsonEq = (v: unknown, n: number) => v === n || v === String(n);
const asNumber = (v: unknown) =>
  typeof v === "number" ? v : typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
const hasNum = (t: Thing, key: string, test: (n: number) => boolean) => {
  const n = asNumber(md(t, key));
  return n !== undefined && test(n);
};

describe("every operator returns exactly the matching rows of the caller's business and mode", () => {
  it.each<[string, (t: Thing) => boolean]>([
    // string
    ["name:Ada", (t) => t.name === "Ada"],
    ["name=Ada", (t) => t.name === "Ada"],
    ["name|eq|Ada", (t) => t.name === "Ada"],
    ["-name:Ada", (t) => t.name !== "Ada"],
    ["name!=Ada", (t) => t.name !== "Ada"],
    ["name|ne|Ada", (t) => t.name !== "Ada"],
    ['name:"ada obi"', (t) => t.name === "ada obi"],
    ["name:<ada obi>", (t) => t.name === "ada obi"],
    ['name:"Say \\"hi\\""', (t) => t.name === 'Say "hi"'],
    ['name:<Say "hi">', (t) => t.name === 'Say "hi"'],
    ["name~^ada", (t) => /^ada/i.test(t.name)],
    ["name|like|^ada", (t) => /^ada/i.test(t.name)],
    ['name~"obi$"', (t) => /obi$/i.test(t.name)],
    ["-name~^ada", (t) => !/^ada/i.test(t.name)],
    ["name|nlike|^ada", (t) => !/^ada/i.test(t.name)],
    ["name|in|Ada,Chidi", (t) => ["Ada", "Chidi"].includes(t.name)],
    ["name|nin|Ada,Chidi", (t) => !["Ada", "Chidi"].includes(t.name)],
    ["name>Chidi", (t) => t.name > "Chidi"],
    ["name|lte|Bola", (t) => t.name <= "Bola"],
    ["name|exists|true", () => true],
    // number
    ["amount:17", (t) => t.amount === 17],
    ["amount>50", (t) => t.amount > 50],
    ["amount|gt|50", (t) => t.amount > 50],
    ["amount>=50", (t) => t.amount >= 50],
    ["amount|gte|50", (t) => t.amount >= 50],
    ["amount<-10", (t) => t.amount < -10],
    ["amount|lt|-10", (t) => t.amount < -10],
    ["amount<=0", (t) => t.amount <= 0],
    ["amount|lte|0", (t) => t.amount <= 0],
    ["amount>16.5", (t) => t.amount > 16.5],
    ["amount|in|-20,17,54", (t) => [-20, 17, 54].includes(t.amount)],
    ["amount|nin|-20,17,54", (t) => ![-20, 17, 54].includes(t.amount)],
    ["rank:1", (t) => t.rank === 1],
    ["rank!=1", (t) => t.rank !== 1],
    ["rank>1", (t) => t.rank !== null && t.rank > 1],
    ["rank|in|1,2", (t) => t.rank === 1 || t.rank === 2],
    ["rank|nin|1,2", (t) => t.rank !== 1 && t.rank !== 2],
    ["rank|exists|false", (t) => t.rank === null],
    ["rank|exists|true", (t) => t.rank !== null],
    // boolean
    ["active:true", (t) => t.active],
    ["active!=true", (t) => !t.active],
    ["active|ne|false", (t) => t.active],
    // date
    ["createdAt|gtd|2023-03-14T00:10:00Z", (t) => t.created_at.getTime() > T("2023-03-14T00:10:00Z")],
    ["createdAt|gted|2023-03-14T00:10:00Z", (t) => t.created_at.getTime() >= T("2023-03-14T00:10:00Z")],
    ["createdAt|ltd|2023-03-14T00:10:00Z", (t) => t.created_at.getTime() < T("2023-03-14T00:10:00Z")],
    ["createdAt|lted|2023-03-14T01:10:00+01:00", (t) => t.created_at.getTime() <= T("2023-03-14T00:10:00Z")],
    [`createdAt>=${T("2023-03-14T00:20:00Z")}`, (t) => t.created_at.getTime() >= T("2023-03-14T00:20:00Z")],
    ["createdAt<2023-03-14T00:05:00.000Z", (t) => t.created_at.getTime() < T("2023-03-14T00:05:00Z")],
    ["createdAt:2023-03-14T00:03:00Z", (t) => t.created_at.getTime() === T("2023-03-14T00:03:00Z")],
    [
      "createdAt|in|2023-03-14T00:03:00Z,1678752240000",
      (t) => [T("2023-03-14T00:03:00Z"), 1678752240000].includes(t.created_at.getTime()),
    ],
    // id
    ["id:t.001", (t) => t.id === "t.001"],
    ["id|in|t.001,t.002,t.009", (t) => ["t.001", "t.002"].includes(t.id)],
    ["id>t.040", (t) => t.id > "t.040"],
    ["customer:cus.1", (t) => t.customer === "cus.1"],
    ["customer=cus.1", (t) => t.customer === "cus.1"],
    ["customer.id:cus.1", (t) => t.customer === "cus.1"],
    ["-customer.id:cus.1", (t) => t.customer !== "cus.1"],
    ["customer|nin|cus.1", (t) => t.customer !== "cus.1"],
    ["customer~^CUS\\.[12]$", (t) => t.customer === "cus.1" || t.customer === "cus.2"],
    ["customer|exists|false", (t) => t.customer === null],
    ["customer|exists|true", (t) => t.customer !== null],
    // array
    ["tags:b", (t) => t.tags.includes("b")],
    ["tags=b", (t) => t.tags.includes("b")],
    ["tags|eq|b", (t) => t.tags.includes("b")],
    ["tags:7", (t) => t.tags.includes(7)],
    ['tags:"7"', () => false],
    ["tags!=b", (t) => !t.tags.includes("b")],
    ["-tags:b", (t) => !t.tags.includes("b")],
    ["tags|ne|b", (t) => !t.tags.includes("b")],
    ["tags|all|a,b", (t) => t.tags.includes("a") && t.tags.includes("b")],
    ["tags|all|c,7", (t) => t.tags.includes("c") && t.tags.includes(7)],
    ["tags|all|a,c", () => false],
    ["tags|in|a,c", (t) => t.tags.some((x) => x === "a" || x === "c")],
    ["tags|in|7", (t) => t.tags.includes(7)],
    ["tags|nin|a,c", (t) => !t.tags.some((x) => x === "a" || x === "c")],
    ["tags|size|1", (t) => t.tags.length === 1],
    ["tags|size|0", (t) => t.tags.length === 0],
    ["tags|nsize|0", (t) => t.tags.length !== 0],
    ["tags|exists|true", () => true],
    // object paths
    ["metadata|exists|true", () => true],
    ["metadata.tier:gold", (t) => md(t, "tier") === "gold"],
    ["metadata.tier=gold", (t) => md(t, "tier") === "gold"],
    ["-metadata.tier:gold", (t) => md(t, "tier") !== "gold"],
    ["metadata.tier!=gold", (t) => md(t, "tier") !== "gold"],
    ["metadata.tier|in|gold", (t) => md(t, "tier") === "gold"],
    ["metadata.tier|nin|gold", (t) => md(t, "tier") !== "gold"],
    ["metadata.userId:14", (t) => jsonEq(md(t, "userId"), 14)],
    ["metadata.userId:13", (t) => jsonEq(md(t, "userId"), 13)],
    ['metadata.userId:"14"', (t) => md(t, "userId") === "14"],
    ['metadata.userId:"13"', () => false],
    ["metadata.userId>40", (t) => hasNum(t, "userId", (n) => n > 40)],
    ["metadata.userId|gte|40", (t) => hasNum(t, "userId", (n) => n >= 40)],
    ["metadata.userId<3", (t) => hasNum(t, "userId", (n) => n < 3)],
    ["metadata.userId|lte|3", (t) => hasNum(t, "userId", (n) => n <= 3)],
    ["metadata.userId|in|3,14,22", (t) => ["3", "14", "22"].includes(String(md(t, "userId")))],
    ["metadata.userId|nin|3,14,22", (t) => !["3", "14", "22"].includes(String(md(t, "userId")))],
    ["metadata.score>30", (t) => hasNum(t, "score", (n) => n > 30)],
    ["metadata.score>a", (t) => md(t, "score") === "high"],
    ["metadata.score:high", (t) => md(t, "score") === "high"],
    ["metadata.score:4.5", (t) => md(t, "score") === 4.5],
    ["metadata.nested.level:2", (t) => (md(t, "nested") as { level: number }).level === 2],
    ["metadata.nested.level>=1", (t) => (md(t, "nested") as { level: number }).level >= 1],
    ["metadata.flag|exists|true", (t) => "flag" in t.metadata],
    ["metadata.flag|exists|false", (t) => !("flag" in t.metadata)],
    ["metadata.flag:true", (t) => md(t, "flag") === true],
    ["metadata.flag:false", () => false],
    ["metadata.tier~^SIL", (t) => md(t, "tier") === "silver"],
    ["metadata.tier|like|^sil", (t) => md(t, "tier") === "silver"],
    ["-metadata.tier~^sil", (t) => md(t, "tier") !== "silver"],
    ["metadata.tier|nlike|^sil", (t) => md(t, "tier") !== "silver"],
    ['metadata.email~"^user1\\d@example\\.com$"', (t) => /^user1\d@example\.com$/.test(md(t, "email") as string)],
    ["metadata.missing:1", () => false],
    ["-metadata.missing:1", () => true],
    ["metadata.missing>1", () => false],
    ["metadata.missing|nlike|x", () => true],
    // several expressions
    ["name:Ada amount>30", (t) => t.name === "Ada" && t.amount > 30],
    ["tags:b metadata.tier:gold active:true", (t) => t.tags.includes("b") && md(t, "tier") === "gold" && t.active],
  ])("%s", async (filter, predicate) => {
    expect(await ids({ filter })).toEqual(expected(predicate));
  });

  it("combines or, nor and and with filter", async () => {
    expect(await ids({ or: "name:Ada name:Chidi" })).toEqual(expected((t) => t.name === "Ada" || t.name === "Chidi"));
    expect(await ids({ nor: "name:Ada name:Chidi" })).toEqual(
      expected((t) => !(t.name === "Ada" || t.name === "Chidi")),
    );
    expect(await ids({ nor: "rank>1" })).toEqual(expected((t) => !(t.rank !== null && t.rank > 1)));
    expect(await ids({ and: "name:Ada amount>0" })).toEqual(expected((t) => t.name === "Ada" && t.amount > 0));
    expect(await ids({ filter: "active:true", or: "tags:a tags:c", nor: "amount<0", and: "rank|exists|true" })).toEqual(
      expected((t) => t.active && (t.tags.includes("a") || t.tags.includes("c")) && !(t.amount < 0) && t.rank !== null),
    );
  });

  it("counts with the same filters, whatever the cursor and limit", async () => {
    const q = parseListQuery({ filter: "tags:b", countTotal: "", limit: "2", after: "t.010" }, thingResource);
    const { text, values } = compileCountQuery(q, thingResource, SCOPE);
    expect((await db.query<{ count: number }>(text, values)).rows[0]!.count).toBe(
      expected((t) => t.tags.includes("b")).length,
    );
  });
});

const ATTACKS = [
  "'; DROP TABLE q.things; --",
  "$1",
  "$1::text); DROP TABLE q.things; --",
  "\\'",
  "\\",
  "1 OR 1=1",
  "' OR ''='",
  "ä'); SELECT pg_sleep(1); --",
  '"; DELETE FROM q.things; --',
  "') OR true --",
  '{"a": 1}',
  "🎉 \u200b ✓",
  "%' OR 1=1 --",
];
const quote = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

describe("injection strings in any parameter do no harm", () => {
  it("match nothing when they are filter values", async () => {
    for (const attack of ATTACKS) {
      for (const filter of [
        `name:${quote(attack)}`,
        `metadata.tier:${quote(attack)}`,
        `tags:${quote(attack)}`,
        `metadata.a.b|in|x${attack.replace(/[\s,]/g, "")}`,
        `-name:${quote(attack)} name:x`,
      ]) {
        expect(await ids({ filter })).toEqual([]);
      }
    }
    expect(await rowCount(db)).toBe(50);
  });

  it("are refused or run harmlessly in every parameter", async () => {
    for (const attack of ATTACKS) {
      for (const name of LIST_PARAMETERS) {
        for (const value of [attack, `name:${quote(attack)}`, `metadata.${attack}:1`, [attack, attack]]) {
          try {
            const page = await readPage(db, { [name]: value });
            expect(page.data.length).toBeLessThanOrEqual(20);
          } catch (error) {
            if (!(error instanceof QueryError)) throw error;
          }
        }
      }
    }
    expect(await rowCount(db)).toBe(50);
    expect((await db.query("SELECT count(*)::int AS n FROM q.things WHERE secret = 'hidden'")).rows[0]).toEqual({
      n: 50,
    });
  });
});
