import { describe, expect, it } from "vitest";
import { tokenizeFilter } from "./tokenize";

const tokens = (input: string) => tokenizeFilter(input).map((e) => [e.field, e.op, e.value, e.quoted]);

describe("tokenizeFilter", () => {
  it.each<[string, unknown[][]]>([
    ["a:1", [["a", "eq", "1", false]]],
    [
      "a=1 b!=2",
      [
        ["a", "eq", "1", false],
        ["b", "ne", "2", false],
      ],
    ],
    [
      "-a:1 -a~x a~y",
      [
        ["a", "ne", "1", false],
        ["a", "nlike", "x", false],
        ["a", "like", "y", false],
      ],
    ],
    [
      "a>1 a>=1 a<1 a<=1",
      [
        ["a", "gt", "1", false],
        ["a", "gte", "1", false],
        ["a", "lt", "1", false],
        ["a", "lte", "1", false],
      ],
    ],
    [
      "a|gted|2023-01-01 a|nsize|0",
      [
        ["a", "gted", "2023-01-01", false],
        ["a", "nsize", "0", false],
      ],
    ],
    [
      "a|eq|x|y a:b:c a=b=c",
      [
        ["a", "eq", "x|y", false],
        ["a", "eq", "b:c", false],
        ["a", "eq", "b=c", false],
      ],
    ],
    [
      // The original provider's form (double bars, upper case, NEQ), as its documentation's intro writes it.
      "cardType||EQ||verve a||NEQ||1 a||IN||x,y a||LIKE||^v a|Gte|2 a|neq|3",
      [
        ["cardType", "eq", "verve", false],
        ["a", "ne", "1", false],
        ["a", "in", "x,y", false],
        ["a", "like", "^v", false],
        ["a", "gte", "2", false],
        ["a", "ne", "3", false],
      ],
    ],
    [
      'a:"x y" b:<x y>',
      [
        ["a", "eq", "x y", true],
        ["b", "eq", "x y", true],
      ],
    ],
    [
      'a:"\\"" b:<\\>> c:"\\\\" d:"\\d" e:<\\">',
      [
        ["a", "eq", '"', true],
        ["b", "eq", ">", true],
        ["c", "eq", "\\", true],
        ["d", "eq", "\\d", true],
        ["e", "eq", '\\"', true],
      ],
    ],
    ["a<<x y>", [["a", "lt", "x y", true]]],
    ["a:<x y> ", [["a", "eq", "x y", true]]],
    [
      "  a:1\t\n b:2\u00a0c:3 ",
      [
        ["a", "eq", "1", false],
        ["b", "eq", "2", false],
        ["c", "eq", "3", false],
      ],
    ],
    ["meta_data.a-b.0:x", [["meta_data.a-b.0", "eq", "x", false]]],
    ["", []],
  ])("%j", (input, expected) => {
    expect(tokens(input)).toEqual(expected);
  });

  it.each(["a||eq|x", "a||bogus||x", "a|EQUALS|x", "-a||EQ||x", "a||EQ"])(
    "%j is the malformed-filter error",
    (input) => {
      expect(() => tokenizeFilter(input)).toThrow("The format of the filter parameter is incorrect");
    },
  );
});
