import { describe, expect, it } from "vitest";
import { statsQuerySchema, statsRange } from "./stats";

const at = (iso: string) => Date.parse(iso);

describe("the stats windows", () => {
  it("hour: 60 whole minutes, the last one the minute now is in", () => {
    const range = statsRange("hour", at("2025-03-14T18:22:51.120Z"));
    expect(range).toEqual({
      window: "hour",
      bucketSeconds: 60,
      from: new Date("2025-03-14T17:23:00.000Z"),
      to: new Date("2025-03-14T18:23:00.000Z"),
    });
  });

  it("day: 96 quarter hours, the last one the quarter hour now is in (a bucket's own start included)", () => {
    const range = statsRange("day", at("2025-03-14T18:15:00.000Z"));
    expect(range.bucketSeconds).toBe(900);
    expect(range.to).toEqual(new Date("2025-03-14T18:30:00.000Z"));
    expect(range.from).toEqual(new Date("2025-03-13T18:30:00.000Z"));
    expect((range.to.getTime() - range.from.getTime()) / 900_000).toBe(96);
  });

  it("takes hour or day (hour when absent), nothing else", () => {
    expect(statsQuerySchema.parse({})).toEqual({ window: "hour" });
    expect(statsQuerySchema.parse({ window: "day", other: "x" })).toEqual({ window: "day" });
    for (const window of ["week", "", "Hour", ["hour", "day"]])
      expect(statsQuerySchema.safeParse({ window }).success, String(window)).toBe(false);
  });
});
