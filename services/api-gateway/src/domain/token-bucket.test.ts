import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  charge,
  fullBucket,
  MAX_DEBT_SECONDS,
  refilled,
  remaining,
  secondsUntilAdmitted,
  secondsUntilFull,
} from "./token-bucket";

const limit = { rate: 10, burst: 20 };

describe("refilled", () => {
  it.each([
    ["no time passed", 5, 0, 5],
    ["100 ms at 10/s", 5, 100, 6],
    ["1 s at 10/s", 0, 1_000, 10],
    ["capped at the burst", 15, 1_000, 20],
    ["a debt is paid back first", -10, 1_500, 5],
    ["a clock going back adds nothing", 5, -500, 5],
  ])("%s", (_name, tokens, elapsed, expected) => {
    expect(refilled({ tokens, at: 1_000 }, limit, 1_000 + elapsed)).toBeCloseTo(expected, 9);
  });

  it("caps a bucket above a lowered burst at once", () => {
    expect(refilled({ tokens: 50, at: 0 }, limit, 0)).toBe(20);
  });

  it("never exceeds the burst and never loses tokens as time passes", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -500, max: 100, noNaN: true }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 1, max: 1_000 }),
        (tokens, a, b, rate, burst) => {
          const l = { rate, burst };
          const start = { tokens: Math.min(tokens, burst), at: 0 };
          const [early, late] = [Math.min(a, b), Math.max(a, b)];
          const x = refilled(start, l, early);
          const y = refilled(start, l, late);
          expect(y).toBeLessThanOrEqual(burst);
          expect(y).toBeGreaterThanOrEqual(x);
          // Refilling in two steps is refilling once.
          expect(refilled({ tokens: x, at: early }, l, late)).toBeCloseTo(y, 6);
        },
      ),
    );
  });

  it("admits at most burst + rate × seconds over any stretch", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 200 }), (gaps) => {
        const state = fullBucket(limit, 0);
        let now = 0;
        let admitted = 0;
        for (const gap of gaps) {
          now += gap;
          state.tokens = refilled(state, limit, now);
          state.at = now;
          if (state.tokens >= 1) {
            state.tokens -= 1;
            admitted += 1;
          }
        }
        expect(admitted).toBeLessThanOrEqual(limit.burst + (limit.rate * now) / 1000);
      }),
    );
  });
});

describe("charge", () => {
  it("takes what other instances spent, into debt", () => {
    const state = { tokens: 3, at: 0 };
    charge(state, limit, 8, 0);
    expect(state.tokens).toBe(-5);
    expect(remaining(state)).toBe(0);
  });

  it("stops the debt at MAX_DEBT_SECONDS of refill and a burst", () => {
    const state = { tokens: 0, at: 0 };
    charge(state, limit, 1_000_000, 0);
    expect(state.tokens).toBe(-(limit.burst + limit.rate * MAX_DEBT_SECONDS));
  });
});

describe("the header and Retry-After numbers", () => {
  it.each([
    [20, 20, 0, 0],
    [12.5, 12, 0, 1],
    [0.5, 0, 1, 2],
    [-14, 0, 2, 4],
  ])("%d tokens: r=%d, Retry-After %d, t=%d", (tokens, r, retryAfter, t) => {
    const state = { tokens, at: 0 };
    expect(remaining(state)).toBe(r);
    expect(secondsUntilAdmitted(state, limit)).toBe(retryAfter);
    expect(secondsUntilFull(state, limit)).toBe(t);
  });
});
