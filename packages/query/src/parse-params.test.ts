import { describe, expect, it } from "vitest";
import { parseListQuery } from "./parse-params";
import { accountResource, customerResource, thingResource } from "./test-fixtures";

const parse = (raw: Record<string, unknown>) => parseListQuery(raw, thingResource);
const sortOf = (sort: unknown) =>
  parse({ sort })
    .sort.map((k) => `${k.desc ? "-" : ""}${k.field}`)
    .join(" ");

describe("defaults", () => {
  it("limit 20, newest first (createdAt desc, id desc), no select, expand, filter, cursor or count", () => {
    expect(parse({})).toEqual({
      limit: 20,
      sort: [
        { field: "createdAt", column: "created_at", desc: true },
        { field: "id", column: "id", desc: true },
      ],
      select: undefined,
      expand: new Map(),
      filter: undefined,
      before: undefined,
      after: undefined,
      offset: 0,
      countTotal: false,
    });
  });

  it("ignores parameters that are not list parameters", () => {
    expect(parse({ foo: ["a", "b"], bar: { x: "y" } }).limit).toBe(20);
  });
});

describe("limit", () => {
  it.each([
    ["1", 1],
    ["20", 20],
    ["050", 50],
    ["50", 50],
  ])("%s → %d (this resource's maxLimit is 50)", (limit, expected) => {
    expect(parse({ limit }).limit).toBe(expected);
  });

  it("defaults its maximum to 100", () => {
    expect(parseListQuery({ limit: "100" }, customerResource).limit).toBe(100);
    expect(() => parseListQuery({ limit: "101" }, customerResource)).toThrow(/from 1 to 100/);
  });
});

describe("sort", () => {
  it.each([
    ["", "-createdAt -id"],
    ["name", "name id"],
    ["-name", "-name -id"],
    ["name -amount", "name -amount -id"],
    ["-amount name", "-amount name id"],
    ["  name\t createdAt ", "name createdAt id"],
    ["id", "id"],
    ["-id", "-id"],
    ["-rank", "-rank -id"],
    ["active -createdAt", "active -createdAt -id"],
  ])("%j → %s (id is always the last key, in the direction of the key before it)", (sort, expected) => {
    expect(sortOf(sort)).toBe(expected);
  });

  it("a repeated sort parameter adds keys; nullable fields are marked for the keyset", () => {
    expect(sortOf(["name", "-amount"])).toBe("name -amount -id");
    expect(parse({ sort: "rank" }).sort[0]).toEqual({ field: "rank", column: "rank", desc: false, nullable: true });
  });
});

describe("select", () => {
  it.each([
    ["name amount", { mode: "include", fields: ["name", "amount"] }],
    ["-tags -metadata", { mode: "exclude", fields: ["tags", "metadata"] }],
    ["name name", { mode: "include", fields: ["name"] }],
    ["id object customer", { mode: "include", fields: ["id", "object", "customer"] }],
    ["", undefined],
  ])("%j", (select, expected) => {
    expect(parse({ select }).select).toEqual(expected);
  });
});

describe("expand", () => {
  const expandOf = (expand: unknown) => [...parse({ expand }).expand];

  it.each<[unknown, Array<[string, string[] | undefined]>]>([
    ["customer", [["customer", undefined]]],
    ["customer:name", [["customer", ["name"]]]],
    ["customer:name,account", [["customer", ["name", "account"]]]],
    ["customer:name customer:account", [["customer", ["name", "account"]]]],
    ["customer:name customer:name", [["customer", ["name"]]]],
    ["customer customer:name", [["customer", undefined]]],
    ["customer:name customer", [["customer", undefined]]],
    [
      "customer.account",
      [
        ["customer", undefined],
        ["customer.account", undefined],
      ],
    ],
    [
      "customer.account:number",
      [
        ["customer", undefined],
        ["customer.account", ["number"]],
      ],
    ],
    [
      "customer.account customer:name",
      [
        ["customer", ["name"]],
        ["customer.account", undefined],
      ],
    ],
    [
      ["customer:name", "customer.account"],
      [
        ["customer", ["name"]],
        ["customer.account", undefined],
      ],
    ],
  ])("%j", (expand, expected) => {
    expect(expandOf(expand)).toEqual(expected);
  });

  it("checks deeper paths while parsing when given the related resources", () => {
    const resources = { customer: customerResource, account: accountResource };
    expect([...parseListQuery({ expand: "customer.account" }, thingResource, { resources }).expand]).toHaveLength(2);
    expect(() => parseListQuery({ expand: "customer.card" }, thingResource, { resources })).toThrow(
      /customer has no expandable field "card"/,
    );
    // Without them the deeper segment is checked by applyExpand.
    expect(() => parse({ expand: "customer.card" })).not.toThrow();
  });
});

describe("page (the original interface's paging, from 0)", () => {
  it.each([
    [{}, 0],
    [{ page: "0" }, 0],
    [{ page: "2" }, 40],
    [{ page: "3", limit: "7" }, 21],
    [{ page: "200", limit: "50" }, 10_000],
  ])("%j skips %d items", (raw, offset) => {
    expect(parse(raw).offset).toBe(offset);
  });

  it.each([
    [{ page: "-1" }, 'page must be a whole number from 0, not "-1"'],
    [{ page: "1.5" }, 'page must be a whole number from 0, not "1.5"'],
    [{ page: "" }, 'page must be a whole number from 0, not ""'],
    [{ page: ["1", "2"] }, 'parameter "page" was given more than once'],
    [{ page: "1", after: "t.001" }, "give page or a cursor (before, after), not both"],
    [{ page: "501" }, "page 501 of 20 items starts past the first 10000 items: page on from there with after"],
  ])("%j is a 400: %s", (raw, message) => {
    expect(() => parse(raw)).toThrow(expect.objectContaining({ status: 400, message }));
  });
});

describe("cursors and countTotal", () => {
  it("reads before and after as item ids", () => {
    expect(parse({ after: "t.001" })).toMatchObject({ after: "t.001", before: undefined });
    expect(parse({ before: "c.auth.8f3a-x_Y" })).toMatchObject({ before: "c.auth.8f3a-x_Y", after: undefined });
  });

  it.each([
    [undefined, false],
    ["", true],
    ["true", true],
    ["false", false],
  ])("countTotal %j → %s", (countTotal, expected) => {
    expect(parse(countTotal === undefined ? {} : { countTotal }).countTotal).toBe(expected);
  });
});
