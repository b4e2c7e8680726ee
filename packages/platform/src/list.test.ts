import { describe, expect, it } from "vitest";
import { compileListQuery, parseListQuery, scopedResource } from "@cardhold/query";
import { withinFixed } from "./list";

const entries = scopedResource("entry", "s.entries", {
  id: { type: "id", column: "id", sortable: true },
  account: { type: "id", column: "account_id" },
  kind: { type: "string", column: "kind" },
});
const scope = { businessId: "bus.1", mode: "test" };
const compiled = (raw: Record<string, string>, within?: Record<string, string>) =>
  compileListQuery(withinFixed(parseListQuery(raw, entries), { spec: entries, within }), entries, scope);

describe("a list's fixed conditions (within)", () => {
  it("none, or an empty set, leaves the caller's query as it is", () => {
    const plain = compiled({ filter: "kind:fee" });
    expect(compiled({ filter: "kind:fee" }, {})).toEqual(plain);
    expect(compiled({}, {})).toEqual(compiled({}));
  });

  it("are ANDed ahead of the caller's filter", () => {
    const { text, values } = compiled({ filter: "kind:fee" }, { account: "ac.1" });
    expect(text).toMatch(/account_id/);
    expect(text).toMatch(/kind/);
    expect(values).toEqual(expect.arrayContaining(["ac.1", "fee"]));
  });

  it("name only declared fields", () => {
    expect(() => compiled({}, { nope: "x" })).toThrow(/nope is not a field of entry/);
  });
});
