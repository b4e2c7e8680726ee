import { describe, expect, it } from "vitest";
import { QueryError } from "./errors";
import { parseListQuery } from "./parse-params";
import { defineResource } from "./resource";
import { applyExpand, applySelect, type ExpandLoader } from "./select-expand";
import { accountResource, customerResource, SCOPE, thingResource } from "./test-fixtures";

const record = {
  id: "t.1",
  object: "thing",
  name: "Ada",
  amount: 5,
  tags: ["a"],
  metadata: { k: 1 },
  customer: "cus.1",
};
const select = (raw: Record<string, unknown>) => applySelect(record, parseListQuery(raw, thingResource));

describe("applySelect", () => {
  it.each<[Record<string, unknown>, object]>([
    [{}, record],
    [{ select: "name" }, { id: "t.1", object: "thing", name: "Ada" }],
    [{ select: "name amount" }, { id: "t.1", object: "thing", name: "Ada", amount: 5 }],
    [{ select: "createdAt" }, { id: "t.1", object: "thing" }],
    [{ select: "id" }, { id: "t.1", object: "thing" }],
    [{ select: "-tags -metadata" }, { id: "t.1", object: "thing", name: "Ada", amount: 5, customer: "cus.1" }],
    [
      { select: "-id -object -name" },
      { id: "t.1", object: "thing", amount: 5, tags: ["a"], metadata: { k: 1 }, customer: "cus.1" },
    ],
    [
      { select: "name", expand: "customer" },
      { id: "t.1", object: "thing", name: "Ada", customer: "cus.1" },
    ],
    [
      { select: "-customer", expand: "customer" },
      { id: "t.1", object: "thing", name: "Ada", amount: 5, tags: ["a"], metadata: { k: 1 } },
    ],
  ])("%j", (raw, expected) => {
    expect(select(raw)).toEqual(expected);
  });

  it("does not change the record it is given", () => {
    const copy = structuredClone(record);
    select({ select: "-name" });
    expect(record).toEqual(copy);
  });
});

const customers: Record<string, Record<string, unknown>> = {
  "cus.1": { id: "cus.1", object: "customer", name: "One", account: "ac.1", email: "one@x" },
  "cus.2": { id: "cus.2", object: "customer", name: "Two", account: "ac.missing", email: "two@x" },
};
const accounts: Record<string, Record<string, unknown>> = {
  "ac.1": { id: "ac.1", object: "account", number: "0001", bank: "B" },
};

function loaders(calls: string[][] = []): Record<string, ExpandLoader> {
  const loader = (spec: typeof customerResource, table: Record<string, Record<string, unknown>>): ExpandLoader => ({
    spec,
    async load(ids, scope) {
      expect(scope).toEqual(SCOPE);
      calls.push(ids);
      return new Map(ids.filter((id) => table[id]).map((id) => [id, table[id]!]));
    },
  });
  return { customer: loader(customerResource, customers), account: loader(accountResource, accounts) };
}

const things = [
  { id: "t.1", object: "thing", customer: "cus.1" },
  { id: "t.2", object: "thing", customer: "cus.2" },
  { id: "t.3", object: "thing", customer: "cus.1" },
  { id: "t.4", object: "thing", customer: null },
  { id: "t.5", object: "thing", customer: "cus.unknown" },
];
const expand = (raw: Record<string, unknown>, calls?: string[][]) =>
  applyExpand(things, parseListQuery(raw, thingResource), thingResource, loaders(calls), SCOPE);

describe("applyExpand", () => {
  it("replaces ids with the related records, loading each id once; unknown or null ids stay as they are", async () => {
    const calls: string[][] = [];
    const out = await expand({ expand: "customer" }, calls);
    expect(calls).toEqual([["cus.1", "cus.2", "cus.unknown"]]);
    expect(out.map((r) => r.customer)).toEqual([
      customers["cus.1"],
      customers["cus.2"],
      customers["cus.1"],
      null,
      "cus.unknown",
    ]);
    expect(things[0]!.customer).toBe("cus.1"); // the input is not changed
  });

  it("keeps only the selected subfields (and id, object), merging several selects of one path", async () => {
    const out = await expand({ expand: "customer:name customer:email" });
    expect(out[0]!.customer).toEqual({ id: "cus.1", object: "customer", name: "One", email: "one@x" });
  });

  it("expands to depth 2 (customer.account), with sub-selects at either level", async () => {
    const out = await expand({ expand: "customer:name customer.account:number" });
    expect(out[0]!.customer).toEqual({
      id: "cus.1",
      object: "customer",
      name: "One",
      account: { id: "ac.1", object: "account", number: "0001" },
    });
    expect(out[1]!.customer).toEqual({ id: "cus.2", object: "customer", name: "Two", account: "ac.missing" });
    const all = await expand({ expand: "customer.account" });
    expect(all[0]!.customer).toEqual({ ...customers["cus.1"], account: accounts["ac.1"] });
  });

  it("refuses a deeper relation the related resource does not declare, as a 400", async () => {
    await expect(expand({ expand: "customer.card" })).rejects.toBeInstanceOf(QueryError);
    await expect(expand({ expand: "customer.card" })).rejects.toThrow(/customer has no expandable field "card"/);
  });

  it("treats a declared relation without a loader as a programming error", async () => {
    const spec = defineResource({ ...thingResource, relations: { customer: "customer", owner: "person" } });
    const q = parseListQuery({ expand: "owner" }, spec);
    await expect(applyExpand(things, q, spec, loaders(), SCOPE)).rejects.toThrow(/no loader for resource "person"/);
    await expect(applyExpand(things, q, spec, loaders(), SCOPE)).rejects.not.toBeInstanceOf(QueryError);
  });

  it("returns the records unchanged without expand", async () => {
    expect(await expand({})).toBe(things);
  });
});
