import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCountQuery, compileListQuery } from "./compile-sql";
import { compileCursorCheck } from "./cursor";
import { QueryError } from "./errors";
import { LIST_PARAMETERS, parseListQuery } from "./parse-params";
import { SCOPE, thingResource } from "./test-fixtures";

/** Pieces of the grammar, so generated strings reach deep paths and not only the first character check. */
const grammarish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "name",
        "amount",
        "metadata.a",
        "tags",
        "createdAt",
        "customer.id",
        "rank",
        "active",
        "-name",
        "-",
        "|",
        ":",
        "=",
        "!=",
        ">",
        ">=",
        "<",
        "<=",
        "~",
        '"',
        "<",
        ">",
        "\\",
        " ",
        ",",
        ".",
        "|eq|",
        "|in|",
        "|all|",
        "|size|",
        "|gtd|",
        "|exists|",
        "|like|",
        "true",
        "2023-01-01",
        "2023-01-01T00:00:00Z",
        "12",
        "-3.5",
        "customer",
        "customer.account",
        ":name,id",
        "t.001",
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), grammarish);
const anyValue = fc.oneof(
  text,
  fc.array(text, { maxLength: 3 }),
  fc.constant(undefined),
  fc.constant(""),
  fc.dictionary(fc.string(), fc.string()),
  fc.array(fc.dictionary(fc.string(), fc.string()), { maxLength: 2 }),
  fc.integer(),
  fc.constant(null),
);

/** Parses and compiles; only a QueryError (a 400) may be thrown. */
function parsesOrRefuses(raw: Record<string, unknown>): boolean {
  try {
    const q = parseListQuery(raw, thingResource);
    compileListQuery(q, thingResource, SCOPE);
    compileCountQuery(q, thingResource, SCOPE);
    compileCursorCheck(q, thingResource, SCOPE);
    return true;
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return error.status === 400 && error.body.statusCode === 400;
  }
}

describe("whatever arrives in the list parameters", () => {
  it("parses and compiles, or is refused with a QueryError, never anything else", () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...LIST_PARAMETERS), anyValue), parsesOrRefuses), {
      numRuns: 4000,
    });
  });

  it("holds for grammar-like text in every parameter", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LIST_PARAMETERS),
        fc.oneof(grammarish, fc.array(grammarish, { maxLength: 3 })),
        (param, value) => parsesOrRefuses({ [param]: value }),
      ),
      { numRuns: 4000 },
    );
  });
});

const quote = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
const angle = (value: string) => `<${value.replace(/\\/g, "\\\\").replace(/>/g, "\\>")}>`;
const ATTACKS = [
  "' ; DROP TABLE x; --",
  "$1",
  "$2::text",
  "'",
  "''",
  '"',
  "\\",
  "\\\\'",
  "x' OR '1'='1",
  "é ü 🎉 \u200b 中文",
  "NULL",
  "?",
  "%s",
];
const value = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.string({ minLength: 1, unit: "grapheme" }),
  fc.constantFrom(...ATTACKS),
);

/** Filter shapes with a free value; all of one shape must compile to one SQL text. */
const SHAPES: Array<(v: string) => string> = [
  (v) => `name:${quote(v)}`,
  (v) => `name:${angle(v)}`,
  (v) => `name|ne|${quote(v)}`,
  (v) => `name|in|${quote(v)}`,
  (v) => `name>${quote(v)}`,
  (v) => `name~${quote(v)}`,
  (v) => `-name~${quote(v)}`,
  (v) => `id|nin|${quote(v)}`,
  (v) => `customer.id:${quote(v)}`,
  (v) => `metadata.tier:${quote(v)}`,
  (v) => `-metadata.a.b:${quote(v)}`,
  (v) => `metadata.a|in|${quote(v)}`,
  (v) => `metadata.a>${quote(v)}`,
  (v) => `metadata.a|like|${quote(v)}`,
  (v) => `tags:${quote(v)}`,
  (v) => `tags|all|${quote(v)}`,
  (v) => `tags|nin|${quote(v)}`,
];

function compiled(filter: string): { text: string; values: unknown[] } | undefined {
  try {
    return compileListQuery(parseListQuery({ filter }, thingResource), thingResource, SCOPE);
  } catch (error) {
    if (error instanceof QueryError) return undefined; // e.g. not a valid regular expression
    throw error;
  }
}

describe("values never reach the SQL text", () => {
  it("the text of a filter depends on its shape only: the same as for a benign value", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHAPES), value, (shape, v) => {
        const query = compiled(shape(v));
        if (!query) return;
        const benign = compiled(shape("x"))!;
        expect(query.text).toBe(benign.text);
        if (!benign.text.includes(v)) expect(query.text).not.toContain(v);
      }),
      { numRuns: 3000 },
    );
  });

  it("unquoted values, numbers, dates and JSON paths are bound as well", () => {
    const word = fc.stringMatching(/^[^\s"<]\S{0,20}$/);
    const number = fc
      .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
      .map((n) => n.toFixed(3).replace(/\.?0+$/, ""));
    const date = fc
      .date({ min: new Date("0100-01-01"), max: new Date("9999-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString());
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    const cases = fc.oneof(
      fc.tuple(
        fc.constant("metadata.a:x"),
        word.map((w) => `metadata.a:${w}`),
      ),
      fc.tuple(
        fc.constant("metadata.a:x"),
        number.map((n) => `metadata.a:${n}`),
      ),
      fc.tuple(
        fc.constant("metadata.a>x"),
        number.map((n) => `metadata.a>${n}`),
      ),
      fc.tuple(
        fc.constant("tags:x"),
        number.map((n) => `tags:${n}`),
      ),
      fc.tuple(
        fc.constant("tags|all|x"),
        fc
          .array(fc.oneof(number, fc.stringMatching(/^[a-z]{1,5}$/)), { minLength: 1, maxLength: 6 })
          .map((xs) => `tags|all|${xs.join(",")}`),
      ),
      fc.tuple(
        fc.constant("amount>1"),
        number.map((n) => `amount>${n}`),
      ),
      fc.tuple(
        fc.constant("amount|in|1"),
        fc.array(number, { minLength: 1, maxLength: 6 }).map((xs) => `amount|in|${xs.join(",")}`),
      ),
      fc.tuple(
        fc.constant("createdAt|gtd|2023-01-01"),
        date.map((d) => `createdAt|gtd|${d}`),
      ),
      fc.tuple(
        fc.constant("metadata.a:x"),
        fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => `metadata.${s.join(".")}:x`),
      ),
      fc.tuple(
        fc.constant("metadata.a|exists|true"),
        fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => `metadata.${s.join(".")}|exists|true`),
      ),
    );
    fc.assert(
      fc.property(cases, ([benign, filter]) => {
        const query = compiled(filter);
        if (!query) return;
        expect(query.text).toBe(compiled(benign)!.text);
      }),
      { numRuns: 3000 },
    );
  });

  it("cursors are bound too", () => {
    const benign = compileListQuery(
      parseListQuery({ after: "t.001", sort: "name -amount" }, thingResource),
      thingResource,
      SCOPE,
    ).text;
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._-]{1,40}$/), (id) => {
        const { text, values } = compileListQuery(
          parseListQuery({ after: id, sort: "name -amount" }, thingResource),
          thingResource,
          SCOPE,
        );
        expect(text).toBe(benign);
        expect(values[0]).toBe(id);
      }),
    );
  });

  it("the attack strings appear only among the bound values", () => {
    const benign = compiled("name:x")!.text;
    for (const attack of ATTACKS) {
      const query = compiled(`name:${quote(attack)}`)!;
      expect(query.text).toBe(benign);
      // "$1" or "'" are in any statement's text (a placeholder, a quote): what matters is that the text did not change.
      if (!benign.includes(attack)) expect(query.text).not.toContain(attack);
      expect(query.values).toContain(attack);
    }
  });
});
