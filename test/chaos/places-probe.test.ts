import { describe, expect, it } from "vitest";
import { placesLine } from "./places-probe";

describe("the admission places line", () => {
  it("gives each engine's smallest and largest places, one value when they stayed the same", () => {
    const line = placesLine(
      [
        { instance: "authorization-engine-1", places: 128 },
        { instance: "authorization-engine-1", places: 52 },
        { instance: "authorization-engine-1", places: 90 },
        { instance: "authorization-engine-2", places: 128 },
      ],
      ["authorization-engine-1", "authorization-engine-2"],
    );
    expect(line).toBe("engine admission places: authorization-engine-1 52–128, authorization-engine-2 128");
  });

  it("says an engine no scrape reached is down", () => {
    expect(
      placesLine(
        [{ instance: "authorization-engine-2", places: 16 }],
        ["authorization-engine-1", "authorization-engine-2"],
      ),
    ).toBe("engine admission places: authorization-engine-1 down, authorization-engine-2 16");
  });

  it("says nothing without engines", () => {
    expect(placesLine([], [])).toBeUndefined();
  });
});
