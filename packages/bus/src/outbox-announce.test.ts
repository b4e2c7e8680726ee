import { describe, expect, it } from "vitest";
import { untilHolderRenews } from "./outbox";

describe("how long an announcing relay waits for the lease holder to renew", () => {
  it.each([
    // [lease left, lease length, wait]
    [5_000, 5_000, 2_500], // just renewed: half a lease (the cap), as before
    [4_000, 5_000, 2_000], // renewed 1 s ago: renews 1.5 s from now, plus 0.5 s
    [3_000, 5_000, 1_000],
    [2_000, 5_000, 0], // renewed 3 s ago: it renews before it publishes again
    [-1_000, 5_000, 0], // expired: the announcing relay takes the lease
    [1_400, 2_000, 600],
    [120_000, 120_000, 60_000],
  ])("%i ms left of a %i ms lease: %i ms", (left, lease, wait) => {
    expect(untilHolderRenews(left, lease)).toBe(wait);
  });
});
