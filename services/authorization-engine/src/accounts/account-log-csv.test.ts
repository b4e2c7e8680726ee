import { describe, expect, it } from "vitest";
import { csvField } from "./account-log-csv";

describe("CSV fields", () => {
  it.each<[unknown, string]>([
    ["plain", "plain"],
    [2500, "2500"],
    [-2500, "-2500"],
    [null, ""],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ['=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
    ["@cmd", "'@cmd"],
  ])("%j → %s", (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});
