import { describe, expect, it } from "vitest";
import { FILTER_FORMAT_MESSAGE, QueryError } from "./errors";
import { parseListQuery } from "./parse-params";
import { thingResource } from "./test-resource";
import { tokenizeFilter } from "./tokenize";
import type { Condition, FilterNode } from "./types";

const conditions = (filter: string): Array<Pick<Condition, "field" | "path" | "op" | "value">> => {
  const node = parseListQuery({ filter }, thingResource).filter!;
  const flat = (n: FilterNode): FilterNode[] => (n.kind === "condition" ? [n] : n.children.flatMap(flat));
  return flat(node).map((n) => {
    const c = (n as { condition: Condition }).condition;
    return { field: c.field, path: c.path, op: c.op, value: c.value };
  });
};
const one = (filter: string) => conditions(filter)[0];

function errorOf(raw: Record<string, unknown>): QueryError {
  try {
    parseListQuery(raw, thingResource);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryError);
    return error as QueryError;
  }
  throw new Error("expected a QueryError");
}

describe("operator table: long form and every shorthand", () => {
  it.each([
    ["name|eq|Ada", "eq", "Ada"], ["name:Ada", "eq", "Ada"], ["name=Ada", "eq", "Ada"],
    ["name|ne|Ada", "ne", "Ada"], ["-name:Ada", "ne", "Ada"], ["name!=Ada", "ne", "Ada"],
    ["amount|gt|5", "gt", 5], ["amount>5", "gt", 5],
    ["amount|gte|5", "gte", 5], ["amount>=5", "gte", 5],
    ["amount|lt|5", "lt", 5], ["amount<5", "lt", 5],
    ["amount|lte|5.5", "lte", 5.5], ["amount<=5.5", "lte", 5.5],
    ["name|like|^ad", "like", "^ad"], ["name~^ad", "like", "^ad"],
    ["name|nlike|^ad", "nlike", "^ad"], ["-name~^ad", "nlike", "^ad"],
    ["name|in|Ada,Bola", "in", ["Ada", "Bola"]], ["name|nin|Ada,Bola", "nin", ["Ada", "Bola"]],
    ["tags|all|a,b", "all", ["a", "b"]], ["tags|size|2", "size", 2], ["tags|nsize|0", "nsize", 0],
    ["name|exists|true", "exists", true], ["name|exists|false", "exists", false],
    ["createdAt|gtd|2023-03-14T00:00:00Z", "gtd", "2023-03-14T00:00:00.000Z"],
    ["createdAt|gted|2023-03-14", "gted", "2023-03-14T00:00:00.000Z"],
    ["createdAt|ltd|2023-03-14T10:00:00.000Z", "ltd", "2023-03-14T10:00:00.000Z"],
    ["createdAt|lted|2023-03-14T10:00:00+01:00", "lted", "2023-03-14T09:00:00.000Z"],
    ["createdAt>2023-03-14T00:00:00Z", "gt", "2023-03-14T00:00:00.000Z"],
    ["createdAt<1678752000000", "lt", "2023-03-14T00:00:00.000Z"],
    ["createdAt|gtd|2023-02-28", "gtd", "2023-02-28T00:00:00.000Z"],
  ] as const)("%s", (filter, op, value) => {
    expect(one(filter)).toMatchObject({ op, value });
  });
});

describe("values, paths and identifiers", () => {
  it("parses numbers as numbers when numeric and keeps other values as strings", () => {
    expect(one("metadata.userId:2345")).toEqual({ field: "metadata", path: ["userId"], op: "eq", value: 2345 });
    expect(one("metadata.code:12ab")).toMatchObject({ value: "12ab" });
    expect(one("metadata.temp:-3.5")).toMatchObject({ value: -3.5 });
    expect(one("metadata.tags|in|1,x")).toMatchObject({ value: [1, "x"] });
  });

  it("keeps quoted values as strings, with spaces and backslash escapes", () => {
    expect(one('name:"Ada Obi"')).toMatchObject({ value: "Ada Obi" });
    expect(one("name:<Ada Obi>")).toMatchObject({ value: "Ada Obi" });
    expect(one('name:"say \\"hi\\""')).toMatchObject({ value: 'say "hi"' });
    expect(one("name:<a \\> b>")).toMatchObject({ value: "a > b" });
    expect(one('metadata.code:"2345"')).toMatchObject({ value: "2345" });
    expect(one('name|eq|"two words"')).toMatchObject({ op: "eq", value: "two words" });
  });

  it("addresses nested objects and identifier fields with dots", () => {
    expect(one("metadata.a.b:1")).toMatchObject({ field: "metadata", path: ["a", "b"] });
    expect(one("customer.id:cus.123")).toEqual({ field: "customer", path: [], op: "eq", value: "cus.123" });
    expect(one("customer:cus.123")).toMatchObject({ field: "customer", value: "cus.123" });
    expect(one("id:t.001")).toMatchObject({ field: "id", value: "t.001" });
  });

  it("ANDs filter entries and combines or, nor and and blocks", () => {
    const q = parseListQuery({ filter: "name:Ada amount>5", or: "tags:a tags:b", nor: "active:true", and: "amount<9" }, thingResource);
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

  it("tokenizes several expressions separated by any whitespace", () => {
    expect(tokenizeFilter('  a:1\tb|eq|"x y"\n-c~z ').map((e) => [e.field, e.op, e.value])).toEqual([
      ["a", "eq", "1"], ["b", "eq", "x y"], ["c", "nlike", "z"],
    ]);
  });
});

describe("the other parameters", () => {
  it("has defaults: limit 20, newest first, no count", () => {
    const q = parseListQuery({}, thingResource);
    expect(q).toMatchObject({ limit: 20, countTotal: false, sort: [{ field: "createdAt", desc: true }, { field: "id", desc: true }] });
  });

  it("sorts by several keys with - for descending, id breaking ties", () => {
    expect(parseListQuery({ sort: "name -amount" }, thingResource).sort.map((k) => [k.field, k.desc])).toEqual([
      ["name", false], ["amount", true], ["id", true],
    ]);
  });

  it("reads countTotal as a bare flag or true/false", () => {
    expect(parseListQuery({ countTotal: "" }, thingResource).countTotal).toBe(true);
    expect(parseListQuery({ countTotal: "true" }, thingResource).countTotal).toBe(true);
    expect(parseListQuery({ countTotal: "false" }, thingResource).countTotal).toBe(false);
  });

  it("reads select to include or exclude, and expand with merged sub-selects", () => {
    expect(parseListQuery({ select: "name amount" }, thingResource).select).toEqual({ mode: "include", fields: ["name", "amount"] });
    expect(parseListQuery({ select: "-tags -metadata" }, thingResource).select).toEqual({ mode: "exclude", fields: ["tags", "metadata"] });
    const expand = parseListQuery({ expand: "customer:name customer:email customer.account" }, thingResource).expand;
    expect([...expand]).toEqual([["customer", ["name", "email"]], ["customer.account", undefined]]);
    expect([...parseListQuery({ expand: "customer.account customer:name" }, thingResource).expand]).toEqual([["customer.account", undefined], ["customer", ["name"]]]);
    expect([...parseListQuery({ expand: "customer.account" }, thingResource).expand]).toEqual([["customer.account", undefined], ["customer", undefined]]);
    expect([...parseListQuery({ expand: "customer customer:name" }, thingResource).expand]).toEqual([["customer", undefined]]);
  });

  it("joins a list parameter given twice", () => {
    expect(conditions("name:Ada").length).toBe(1);
    expect(parseListQuery({ filter: ["name:Ada", "amount>1"] }, thingResource).filter).toMatchObject({ kind: "and", children: [{}, {}] });
  });
});

describe("errors", () => {
  it.each(['name:"unterminated', "name", "name|", "name|eq", "name|like", "name|bogus|1", "|eq|1", ":x", "name:", "-name>3", "name:<a", 'name:"a"b'])(
    "malformed filter %j gets exactly the interface's body",
    (filter) => {
      const error = errorOf({ filter });
      expect(error.body).toEqual({ statusCode: 400, message: FILTER_FORMAT_MESSAGE });
    },
  );

  it("malformed or, nor and and get the same body", () => {
    for (const key of ["or", "nor", "and"]) expect(errorOf({ [key]: "name|x" }).body).toEqual({ statusCode: 400, message: FILTER_FORMAT_MESSAGE });
  });

  it.each([
    [{ filter: "colour:red" }, /unknown field "colour"/],
    [{ filter: "secret:x" }, /cannot be filtered/],
    [{ filter: "name.first:x" }, /has no nested fields/],
    [{ filter: "amount:ten" }, /takes a number/],
    [{ filter: "createdAt|gtd|yesterday" }, /not an ISO 8601 date/],
    [{ filter: "createdAt|gtd|2023-02-30" }, /not an ISO 8601 date/],
    [{ filter: "createdAt>99999999999999999" }, /not an ISO 8601 date/],
    [{ filter: "tags|size|99999999999" }, /whole number/],
    [{ filter: `amount>${"9".repeat(400)}` }, /too large/],
    [{ filter: "name:a\u0000b" }, /NUL/],
    [{ filter: "tags|size|abc" }, /whole number/],
    [{ filter: "name|size|2" }, /does not apply/],
    [{ filter: "metadata|eq|x" }, /does not apply/],
    [{ filter: "active:maybe" }, /true or false/],
    [{ filter: "name|exists|yes" }, /true or false/],
    [{ filter: "name~(" }, /regular expression/],
    [{ filter: "name|in|a,,b" }, /empty items/],
    [{ select: "metadata.key" }, /deeper than allowed/],
    [{ select: "name -amount" }, /not both/],
    [{ select: "nope" }, /unknown field/],
    [{ select: "secret" }, /unknown field/],
    [{ expand: "customer.account.owner" }, /deeper than allowed/],
    [{ expand: "name" }, /cannot be expanded/],
    [{ expand: "customer:a:b" }, /path:field1,field2/],
    [{ sort: "colour" }, /unknown sort field/],
    [{ sort: "tags" }, /cannot be sorted/],
    [{ limit: "0" }, /limit/],
    [{ limit: "51" }, /limit/],
    [{ limit: "ten" }, /limit/],
    [{ limit: ["1", "2"] }, /more than once/],
    [{ after: { a: "b" } }, /plain value/],
    [{ after: "x'; DROP" }, /id of an item/],
    [{ after: "t.001", before: "t.002" }, /not both/],
    [{ countTotal: "maybe" }, /countTotal/],
  ] as const)("%j → a 400 naming the problem", (raw, message) => {
    const error = errorOf(raw as Record<string, unknown>);
    expect(error.body).toMatchObject({ statusCode: 400, code: "invalid-query" });
    expect(error.message).toMatch(message);
  });
});
