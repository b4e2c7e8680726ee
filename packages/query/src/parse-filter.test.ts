import { describe, expect, it } from "vitest";
import { parseListQuery } from "./parse-params";
import { thingResource } from "./test-fixtures";
import type { Condition, FilterNode } from "./types";

type Summary = Pick<Condition, "field" | "path" | "op" | "value">;

function conditions(raw: Record<string, unknown>): Summary[] {
  const flat = (n: FilterNode): Condition[] => (n.kind === "condition" ? [n.condition] : n.children.flatMap(flat));
  const node = parseListQuery(raw, thingResource).filter;
  return node ? flat(node).map(({ field, path, op, value }) => ({ field, path, op, value })) : [];
}
const one = (filter: string) => conditions({ filter })[0];

describe("operator table: every row, long form and every shorthand", () => {
  it.each<[string, string, unknown]>([
    ["name|eq|Ada", "eq", "Ada"],
    ["name:Ada", "eq", "Ada"],
    ["name=Ada", "eq", "Ada"],
    ["name|ne|Ada", "ne", "Ada"],
    ["-name:Ada", "ne", "Ada"],
    ["name!=Ada", "ne", "Ada"],
    ["amount|gt|5", "gt", 5],
    ["amount>5", "gt", 5],
    ["amount|gte|5", "gte", 5],
    ["amount>=5", "gte", 5],
    ["amount|lt|-5", "lt", -5],
    ["amount<-5", "lt", -5],
    ["amount|lte|5.5", "lte", 5.5],
    ["amount<=5.5", "lte", 5.5],
    ["name|like|^ad", "like", "^ad"],
    ["name~^ad", "like", "^ad"],
    ["name|nlike|^ad", "nlike", "^ad"],
    ["-name~^ad", "nlike", "^ad"],
    ["name|in|Ada,Bola", "in", ["Ada", "Bola"]],
    ["name|nin|Ada,Bola", "nin", ["Ada", "Bola"]],
    ["tags|all|a,7", "all", ["a", 7]],
    ["tags|size|2", "size", 2],
    ["tags|nsize|0", "nsize", 0],
    ["name|exists|true", "exists", true],
    ["name|exists|false", "exists", false],
    ["createdAt|gtd|2023-03-14T00:00:00Z", "gtd", "2023-03-14T00:00:00.000Z"],
    ["createdAt|gted|2023-03-14", "gted", "2023-03-14T00:00:00.000Z"],
    ["createdAt|ltd|2023-03-14T10:00:00.000Z", "ltd", "2023-03-14T10:00:00.000Z"],
    ["createdAt|lted|2023-03-14T10:00:00+01:00", "lted", "2023-03-14T09:00:00.000Z"],
  ])("%s → %s", (filter, op, value) => {
    expect(one(filter)).toMatchObject({ op, value });
  });
});

describe("the interface's examples", () => {
  it.each<[Record<string, unknown>, Summary[]]>([
    [{ filter: 'name:"Ada Obi"' }, [{ field: "name", path: [], op: "eq", value: "Ada Obi" }]],
    [{ filter: "name:<Ada Obi>" }, [{ field: "name", path: [], op: "eq", value: "Ada Obi" }]],
    [{ filter: 'name:"<text>"' }, [{ field: "name", path: [], op: "eq", value: "<text>" }]],
    [
      { filter: "createdAt|gtd|2023-03-14T08:30:00.000Z" },
      [{ field: "createdAt", path: [], op: "gtd", value: "2023-03-14T08:30:00.000Z" }],
    ],
    [{ filter: "customer.id:cus.123" }, [{ field: "customer", path: [], op: "eq", value: "cus.123" }]],
    [{ filter: "metadata.key:value" }, [{ field: "metadata", path: ["key"], op: "eq", value: "value" }]],
    [{ filter: "metadata.userId:2345" }, [{ field: "metadata", path: ["userId"], op: "eq", value: 2345 }]],
    [{ filter: "id:t.001" }, [{ field: "id", path: [], op: "eq", value: "t.001" }]],
    [{ filter: "customer:cus.1" }, [{ field: "customer", path: [], op: "eq", value: "cus.1" }]],
  ])("%j", (raw, expected) => {
    expect(conditions(raw)).toEqual(expected);
  });
});

describe("values", () => {
  it.each<[string, unknown]>([
    ["metadata.n:2345", 2345],
    ["metadata.n:-3.5", -3.5],
    ["metadata.n:007", 7],
    ["metadata.n:12ab", "12ab"],
    ["metadata.n:1e5", "1e5"],
    ["metadata.n:1.", "1."],
    ["metadata.n:.5", ".5"],
    ["metadata.n:--1", "--1"],
    ['metadata.n:"2345"', "2345"],
    ["metadata.n:<2345>", "2345"],
    ["metadata.n:true", "true"],
    ["metadata.n|in|1,x,2.5", [1, "x", 2.5]],
    ["name:007", "007"],
    ["name|in|1,2", ["1", "2"]],
    ['amount:"5"', 5],
    ["amount|in|1,-2,3.25", [1, -2, 3.25]],
    ["active:true", true],
    ["active|ne|false", false],
    ["createdAt>2023-03-14T00:00:00Z", "2023-03-14T00:00:00.000Z"],
    ["createdAt<1678752000000", "2023-03-14T00:00:00.000Z"],
    ['createdAt:"2023-03-14 10:00"', "2023-03-14T10:00:00.000Z"],
    ["createdAt:2023-03-14T10:00:00", "2023-03-14T10:00:00.000Z"],
    ["createdAt:2023-03-14T10:00:00.123456-0130", "2023-03-14T11:30:00.123Z"],
    ["createdAt:2024-02-29", "2024-02-29T00:00:00.000Z"],
    ["createdAt:0050-06-01", "0050-06-01T00:00:00.000Z"],
    ["createdAt|in|2023-03-14,1678752060000", ["2023-03-14T00:00:00.000Z", "2023-03-14T00:01:00.000Z"]],
  ])("%s → %j", (filter, value) => {
    expect(one(filter)!.value).toEqual(value);
  });

  it.each<[string, string]>([
    ['name:"say \\"hi\\""', 'say "hi"'],
    ["name:<a \\> b>", "a > b"],
    ['name:"back\\\\slash"', "back\\slash"],
    ["name:<back\\\\slash>", "back\\slash"],
    ['name~"^\\d+ x"', "^\\d+ x"],
    ['name:<a " b>', 'a " b'],
    ['name:"a > b"', "a > b"],
    ["name:a\\b", "a\\b"],
    ['name:""', ""],
    ["name:<>", ""],
    ['name|eq|"two words"', "two words"],
    ["name:ünïçødé", "ünïçødé"],
    ['name:"emoji 🎉 ok"', "emoji 🎉 ok"],
  ])("quoting and escapes: %s → %j", (filter, value) => {
    expect(one(filter)!.value).toBe(value);
  });

  it("addresses nested objects and identifier fields with dots", () => {
    expect(one("metadata.a.b.c:1")).toMatchObject({ field: "metadata", path: ["a", "b", "c"] });
    expect(one("metadata.some-key_1:x")).toMatchObject({ path: ["some-key_1"] });
    expect(one("-metadata.tier~gold")).toMatchObject({ op: "nlike", path: ["tier"] });
  });
});

describe("combining expressions", () => {
  it("ANDs filter entries separated by any whitespace", () => {
    expect(parseListQuery({ filter: "  name:Ada\tamount>5\n-tags:c " }, thingResource).filter).toMatchObject({
      kind: "and",
      children: [{ condition: { op: "eq" } }, { condition: { op: "gt" } }, { condition: { op: "ne" } }],
    });
  });

  it("combines filter, or, nor and and, each block ANDed with the others", () => {
    const q = parseListQuery(
      { filter: "name:Ada amount>5", or: "tags:a tags:b", nor: "active:true", and: "amount<9" },
      thingResource,
    );
    expect(q.filter).toMatchObject({
      kind: "and",
      children: [
        { kind: "and", children: [{ kind: "condition" }, { kind: "condition" }] },
        { kind: "or", children: [{ kind: "condition" }, { kind: "condition" }] },
        { kind: "nor", children: [{ kind: "condition" }] },
        { kind: "and", children: [{ kind: "condition" }] },
      ],
    });
  });

  it("a single block is the tree itself; empty or blank blocks are no filter", () => {
    expect(parseListQuery({ or: "name:a name:b" }, thingResource).filter).toMatchObject({
      kind: "or",
      children: [{}, {}],
    });
    expect(parseListQuery({ filter: "", or: "  ", nor: "\t" }, thingResource).filter).toBeUndefined();
  });

  it("a parameter repeated in the URL adds to its block; each text is read on its own", () => {
    expect(conditions({ filter: ["name:Ada", "amount>1"] })).toHaveLength(2);
    expect(parseListQuery({ or: ["name:a", "name:b"] }, thingResource).filter).toMatchObject({
      kind: "or",
      children: [{}, {}],
    });
  });
});
