import { describe, expect, it } from "vitest";
import { isDelayable, isOverdue, PROCESSING_DEADLINE_MS, statusOf, storedBody } from "./delayed-request";

describe("delayed requests", () => {
  it.each([
    ["POST", true],
    ["put", true],
    ["PATCH", true],
    ["DELETE", true],
    ["GET", false],
    ["head", false],
    ["OPTIONS", false],
  ])("%s is delayable: %s", (method, expected) => {
    expect(isDelayable(method)).toBe(expected);
  });

  it.each([
    [200, "completed"],
    [201, "completed"],
    [204, "completed"],
    [299, "completed"],
    [301, "failed"],
    [400, "failed"],
    [409, "failed"],
    [500, "failed"],
    [503, "failed"],
  ])("a final answer %i is %s", (statusCode, expected) => {
    expect(statusOf(statusCode)).toBe(expected);
  });

  it.each([
    ["", null],
    ['{"code":"success","data":{}}', { code: "success", data: {} }],
    ["[1,2]", [1, 2]],
    ["not json", "not json"],
  ])("stores the bytes %j as %j", (text, expected) => {
    expect(storedBody(Buffer.from(text))).toEqual(expected);
  });

  it.each([
    [0, false],
    [PROCESSING_DEADLINE_MS, false],
    [PROCESSING_DEADLINE_MS + 1, true],
  ])("made %i ms ago is overdue: %s", (ageMs, expected) => {
    const now = Date.parse("2025-03-14T18:22:51.000Z");
    expect(isOverdue(new Date(now - ageMs), now)).toBe(expected);
  });
});
