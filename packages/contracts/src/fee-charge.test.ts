import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { feeCharge, NO_FEE, type FeeTerms } from "./fee-charge";

const flat = (value: number): FeeTerms => ({ structure: "flat", value, cap: null });
const percentage = (value: number, cap: number | null = null): FeeTerms => ({ structure: "percentage", value, cap });

/** Percentages as the API accepts them: 0 to 100 with at most 4 decimals. */
const percentages = fc.integer({ min: 0, max: 1_000_000 }).map((steps) => steps / 10_000);
const amounts = fc.integer({ min: 0, max: 1_000_000_000_000_000 });

describe("fee charge", () => {
  it.each([
    ["no fee", NO_FEE, 50_000, 0],
    ["flat, whatever the amount", flat(10_000), 5_000, 10_000],
    ["flat on nothing", flat(250), 0, 250],
    ["1.5 % of 10,000", percentage(1.5), 10_000, 150],
    ["1.5 % of 100 = 1.5, half rounds up", percentage(1.5), 100, 2],
    ["1.5 % of 33 = 0.495, rounds down", percentage(1.5), 33, 0],
    ["2.5 % of 999 = 24.975", percentage(2.5), 999, 25],
    ["0.0001 % of 10^15", percentage(0.0001), 1_000_000_000_000_000, 1_000_000_000],
    ["100 % of the largest amount, exact", percentage(100), 1_000_000_000_000_000, 1_000_000_000_000_000],
    ["1.5 % of 1,000,000 capped at 10,000", percentage(1.5, 10_000), 1_000_000, 10_000],
    ["1.5 % of 100,000 under its cap", percentage(1.5, 10_000), 100_000, 1_500],
    ["a cap of 0", percentage(1.5, 0), 100_000, 0],
    ["0.1 % (not exact as a binary fraction) of 1,000", percentage(0.1), 1_000, 1],
  ])("%s", (_, terms, amount, charge) => {
    expect(feeCharge(terms, amount)).toBe(charge);
  });

  it("refuses amounts that are not whole minor units", () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])
      expect(() => feeCharge(percentage(1), bad)).toThrow(RangeError);
  });

  it("a percentage charge is the exact share rounded to the nearest minor unit, never above amount or cap", () => {
    fc.assert(
      fc.property(percentages, amounts, fc.option(amounts, { nil: null }), (value, amount, cap) => {
        const charge = feeCharge(percentage(value, cap), amount);
        const uncapped = feeCharge(percentage(value), amount);
        // The exact share in millionths of a minor unit; half up: share - 1/2 < charge <= share + 1/2.
        const share = BigInt(amount) * BigInt(Math.round(value * 10_000));
        const off = BigInt(uncapped) * 1_000_000n - share;
        expect(Number.isSafeInteger(charge)).toBe(true);
        expect(off > -500_000n && off <= 500_000n).toBe(true);
        expect(charge).toBe(cap === null ? uncapped : Math.min(uncapped, cap));
        expect(charge).toBeLessThanOrEqual(amount);
      }),
    );
  });

  it("a percentage charge grows with the amount; a flat one does not move", () => {
    fc.assert(
      fc.property(percentages, amounts, amounts, amounts, (value, a, b, flatValue) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(feeCharge(percentage(value), low)).toBeLessThanOrEqual(feeCharge(percentage(value), high));
        expect(feeCharge(flat(flatValue), low)).toBe(feeCharge(flat(flatValue), high));
      }),
    );
  });
});
