import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasLoneSurrogateEscape, jsonTextDepth, MAX_JSON_DEPTH, parseJsonWithin, valueDepth } from "./json-limits";

const nested = (levels: number, open = "[", close = "]") => open.repeat(levels) + close.repeat(levels);

describe("JSON depth", () => {
  it.each([
    ["1", 0],
    ['"[[[{{{"', 0],
    ["[]", 1],
    ['{"a":[1,{"b":"]]]"}]}', 3],
    ['{"a":"\\"[[["}', 1],
    ['[[["\\\\"],[]]]', 3],
    [nested(6000), 6000],
  ])("counts %s as %i levels", (text, depth) => {
    expect(jsonTextDepth(text)).toBe(depth);
    expect(jsonTextDepth(Buffer.from(text))).toBe(depth);
  });

  it("agrees with the parsed value's depth for any JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(jsonTextDepth(text)).toBe(valueDepth(JSON.parse(text), Infinity));
      }),
    );
  });

  it("parses up to the limit and refuses deeper or broken text", () => {
    expect(parseJsonWithin(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(parseJsonWithin(nested(MAX_JSON_DEPTH + 1))).toBeUndefined();
    expect(parseJsonWithin(nested(100_000))).toBeUndefined();
    expect(parseJsonWithin("{")).toBeUndefined();
  });

  it("stops walking a deep value past the limit without overflowing the stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(valueDepth(deep)).toBe(MAX_JSON_DEPTH + 1);
  });
});

describe("lone surrogate escapes", () => {
  it.each([
    ['{"a":"\\ud800"}', true],
    ['{"a":"\\udc00"}', true],
    ['{"a":"\\ud800x"}', true],
    ['{"a":"\\ud83d\\ude00"}', false],
    ['{"a":"\\uD83D\\uDE00 \\ud800"}', true],
    ['{"a":"\\\\ud800"}', false],
    ['{"a":"\\\\\\ud800"}', true],
    ['{"a":"plain \\u00e9"}', false],
  ])("%s → %s", (text, lone) => {
    expect(hasLoneSurrogateEscape(text)).toBe(lone);
    expect(JSON.stringify(JSON.parse(text)).length).toBeGreaterThan(0);
  });

  it("agrees with isWellFormed on any string JSON.stringify escapes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (value) => {
        const text = JSON.stringify({ value });
        expect(hasLoneSurrogateEscape(text)).toBe(!(value as unknown as { isWellFormed(): boolean }).isWellFormed());
      }),
    );
  });
});
