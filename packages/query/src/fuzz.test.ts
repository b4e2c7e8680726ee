import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCountQuery, compileListQuery } from "./compile-sql";
import { QueryError } from "./errors";
import { parseListQuery } from "./parse-params";
import { thingResource } from "./test-resource";

const PARAMS = ["filter", "or", "nor", "and", "select", "expand", "sort", "limit", "before", "after", "countTotal"];
const SCOPE = { businessId: "bus.one", mode: "test" };

/** Strings that look like the grammar, so the fuzzer reaches deep paths, not only the first character check. */
const grammarish = fc
  .array(
    fc.oneof(
      fc.constantFrom("name", "amount", "metadata.a", "tags", "createdAt", "customer.id", "-name", "|", ":", "=", "!=", ">", ">=", "<", "<=", "~", '"', "<", ">", "\\", " ", ",", "|eq|", "|in|", "|gtd|", "|exists|", "true", "2023-01-01", "12", "-3.5"),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

const anyValue = fc.oneof(fc.string(), grammarish, fc.array(fc.string(), { maxLength: 3 }), fc.constant(undefined), fc.dictionary(fc.string(), fc.string()));

function parsesOrRefuses(raw: Record<string, unknown>): boolean {
  try {
    const q = parseListQuery(raw, thingResource);
    compileListQuery(q, thingResource, SCOPE);
    compileCountQuery(q, thingResource, SCOPE);
    return true;
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return error.body.statusCode === 400;
  }
}

describe("whatever arrives in the list parameters", () => {
  it("parses and compiles, or is refused with a QueryError (a 400), never anything else", () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...PARAMS), anyValue), parsesOrRefuses), { numRuns: 3000 });
  });

  it("holds for grammar-like filters in every filter parameter", () => {
    fc.assert(
      fc.property(fc.constantFrom("filter", "or", "nor", "and"), grammarish, (param, text) => parsesOrRefuses({ [param]: text })),
      { numRuns: 3000 },
    );
  });
});

const quote = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

describe("values never reach the SQL text", () => {
  const shapes = [
    (v: string) => `name:${quote(v)}`,
    (v: string) => `metadata.tier:${quote(v)}`,
    (v: string) => `-metadata.a.b~${quote(v)}`,
    (v: string) => `tags:${quote(v)}`,
    (v: string) => `name|nlike|${quote(v)}`,
  ];

  it("the compiled text depends only on the query's shape", () => {
    fc.assert(
      fc.property(fc.constantFrom(...shapes), fc.string({ minLength: 1 }), (shape, value) => {
        let q;
        try {
          q = parseListQuery({ filter: shape(value) }, thingResource);
        } catch (error) {
          return error instanceof QueryError;
        }
        const benign = parseListQuery({ filter: shape("x") }, thingResource);
        const text = compileListQuery(q, thingResource, SCOPE).text;
        return text === compileListQuery(benign, thingResource, SCOPE).text;
      }),
      { numRuns: 2000 },
    );
  });

  it("injection strings appear only among the bound values", () => {
    for (const attack of ["'; DROP TABLE q.things; --", "$1::text", "x') OR ('1'='1", "\"; SELECT 1; --"]) {
      for (const shape of shapes) {
        let query;
        try {
          query = parseListQuery({ filter: shape(attack) }, thingResource);
        } catch (error) {
          expect(error).toBeInstanceOf(QueryError); // not a valid regular expression, for the like shapes
          continue;
        }
        const { text, values } = compileListQuery(query, thingResource, SCOPE);
        expect(text).not.toContain(attack);
        expect(values.length).toBeGreaterThan(2);
      }
    }
    const cursor = compileListQuery(parseListQuery({ after: "t.001" }, thingResource), thingResource, SCOPE);
    expect(cursor.text).not.toContain("t.001");
  });
});
