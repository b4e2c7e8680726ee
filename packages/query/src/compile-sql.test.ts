import { describe, expect, it } from "vitest";
import { compileCountQuery, compileListQuery } from "./compile-sql";
import { compileCursorCheck, finishPage } from "./cursor";
import { parseListQuery } from "./parse-params";
import { defineResource, scopedResource, type ResourceSpec } from "./resource";
import { SCOPE, thingResource } from "./test-fixtures";

const compile = (raw: Record<string, unknown>) =>
  compileListQuery(parseListQuery(raw, thingResource), thingResource, SCOPE);

describe("compileListQuery", () => {
  it("selects t.* in scope, newest first, with the limit bound", () => {
    expect(compile({})).toEqual({
      text: "SELECT t.* FROM q.things t WHERE t.business_id = $1 AND t.mode = $2 ORDER BY t.created_at DESC, t.id DESC LIMIT $3",
      values: ["bus.one", "test", 20],
    });
  });

  it("ANDs the filter blocks after the scope; nor is NOT (… OR …)", () => {
    const { text, values } = compile({ filter: "name:Ada", or: "amount>1 amount<0", nor: "active:true" });
    expect(text).toContain(
      "WHERE t.business_id = $1 AND t.mode = $2 AND (((t.name = $3::text)) AND ((t.amount > $4::numeric) OR (t.amount < $5::numeric)) AND (NOT COALESCE(((t.active = $6::boolean)), false)))",
    );
    expect(values).toEqual(["bus.one", "test", "Ada", 1, 0, true, 20]);
  });

  it("pages with a row comparison when every key goes one way, the cursor item read in scope", () => {
    const { text, values } = compile({ after: "t.007", sort: "-amount" });
    expect(text).toBe(
      "WITH cursor_row AS (SELECT c.amount AS k0, c.id AS k1 FROM q.things c WHERE c.id = $1 AND c.business_id = $2 AND c.mode = $3) " +
        "SELECT t.* FROM q.things t WHERE t.business_id = $4 AND t.mode = $5 AND ((t.amount, t.id) < ((SELECT k0 FROM cursor_row), (SELECT k1 FROM cursor_row))) " +
        "ORDER BY t.amount DESC, t.id DESC LIMIT $6",
    );
    expect(values).toEqual(["t.007", "bus.one", "test", "bus.one", "test", 20]);
  });

  it("reverses the order and the comparison for before", () => {
    const { text } = compile({ before: "t.007", sort: "-amount" });
    expect(text).toContain("((t.amount, t.id) > ((SELECT k0 FROM cursor_row), (SELECT k1 FROM cursor_row)))");
    expect(text).toContain("ORDER BY t.amount ASC, t.id ASC");
  });

  it("pages with a bound plus an OR-chain when directions are mixed", () => {
    const { text } = compile({ after: "t.007", sort: "name -amount" });
    expect(text).toContain(
      "(t.name >= (SELECT k0 FROM cursor_row) AND ((t.name > (SELECT k0 FROM cursor_row)) OR " +
        "(t.name = (SELECT k0 FROM cursor_row) AND t.amount < (SELECT k1 FROM cursor_row)) OR " +
        "(t.name = (SELECT k0 FROM cursor_row) AND t.amount = (SELECT k1 FROM cursor_row) AND t.id < (SELECT k2 FROM cursor_row))))",
    );
    expect(text).toContain("ORDER BY t.name ASC, t.amount DESC, t.id DESC");
  });

  it("compares NULL-aware on a nullable key, without the bound", () => {
    const { text } = compile({ after: "t.007", sort: "rank" });
    expect(text).toContain(
      "(((t.rank > (SELECT k0 FROM cursor_row) OR (t.rank IS NULL AND (SELECT k0 FROM cursor_row) IS NOT NULL))) OR " +
        "(t.rank IS NOT DISTINCT FROM (SELECT k0 FROM cursor_row) AND t.id > (SELECT k1 FROM cursor_row)))",
    );
    expect(text).not.toContain("t.rank >=");
  });

  it("binds JSON paths as text[] and values as parameters; eq on a path is a containment a GIN index can serve", () => {
    const { text, values } = compile({ filter: "metadata.a.b:5 metadata.c|exists|true" });
    expect(text).toContain(
      "((t.metadata @> $3::jsonb OR t.metadata @> $4::jsonb)) AND ((t.metadata #> $5::text[]) IS NOT NULL)",
    );
    expect(values.slice(2, 5)).toEqual(['{"a":{"b":5}}', '{"a":{"b":"5"}}', ["c"]]);
  });
});

describe("compileCountQuery and compileCursorCheck", () => {
  it("counts with the scope and the filters, no cursor, order or limit", () => {
    const q = parseListQuery({ filter: "name:Ada", after: "t.001", limit: "5", sort: "name" }, thingResource);
    expect(compileCountQuery(q, thingResource, SCOPE)).toEqual({
      text: "SELECT count(*)::int AS count FROM q.things t WHERE t.business_id = $1 AND t.mode = $2 AND ((t.name = $3::text))",
      values: ["bus.one", "test", "Ada"],
    });
  });

  it("looks the cursor item up in scope, and is undefined without a cursor", () => {
    const q = parseListQuery({ before: "t.001" }, thingResource);
    expect(compileCursorCheck(q, thingResource, SCOPE)).toEqual({
      text: "SELECT 1 AS found FROM q.things t WHERE t.id = $1 AND t.business_id = $2 AND t.mode = $3",
      values: ["t.001", "bus.one", "test"],
    });
    expect(compileCursorCheck(parseListQuery({}, thingResource), thingResource, SCOPE)).toBeUndefined();
  });
});

describe("finishPage", () => {
  const q = (raw: Record<string, unknown>) => parseListQuery(raw, thingResource);
  it("says hasMore when the page holds limit items, as the interface defines it", () => {
    expect(finishPage([1, 2], q({ limit: "2" }))).toEqual({ data: [1, 2], metadata: { hasMore: true } });
    expect(finishPage([1], q({ limit: "2" }))).toEqual({ data: [1], metadata: { hasMore: false } });
    expect(finishPage([], q({}))).toEqual({ data: [], metadata: { hasMore: false } });
  });

  it("turns a before page (read backwards) into the requested order", () => {
    expect(finishPage([3, 2, 1], q({ before: "t.9", limit: "3" }))).toEqual({
      data: [1, 2, 3],
      metadata: { hasMore: true },
    });
  });
});

describe("resource declarations", () => {
  const base: ResourceSpec = { ...thingResource };
  it.each<[string, Partial<ResourceSpec>, RegExp]>([
    ["table", { table: "q.things; DROP TABLE x" }, /not a plain \[schema.\]table name/],
    [
      "column",
      { fields: { name: { type: "string", column: "Name" } } },
      /"Name" is not a plain lower-case SQL identifier/,
    ],
    ["column", { fields: { name: { type: "string", column: "name--" } } }, /not a plain lower-case SQL identifier/],
    ["scope", { scope: { business: "business id", mode: "mode" } }, /not a plain lower-case SQL identifier/],
    ["field name", { fields: { "a.b": { type: "string", column: "ab" } } }, /"a.b" is not a field name/],
    [
      "sortable type",
      { fields: { tags: { type: "array", column: "tags", sortable: true } } },
      /array field "tags" cannot be sortable/,
    ],
    ["maxLimit", { maxLimit: 0 }, /maxLimit/],
  ])("refuses a bad %s", (_what, change, message) => {
    expect(() => defineResource({ ...base, ...change })).toThrow(message);
  });

  it("scopedResource fills in the platform's conventions", () => {
    expect(scopedResource("x", "s.x", {})).toEqual({
      name: "x",
      table: "s.x",
      idColumn: "id",
      createdColumn: "created_at",
      scope: { business: "business_id", mode: "mode" },
      fields: {},
    });
  });

  it("the compiler re-checks names, even for a spec that skipped defineResource", () => {
    const raw = {
      ...thingResource,
      fields: { ...thingResource.fields, name: { type: "string" as const, column: "name); DROP TABLE x; --" } },
    };
    expect(() => compileListQuery(parseListQuery({ filter: "name:x" }, raw), raw, SCOPE)).toThrow(
      /not a plain lower-case SQL identifier/,
    );
  });
});
