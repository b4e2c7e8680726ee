import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { debitFor, formatRate, parseRate, proceedsOf, ratesAroundMid, type Conversion } from "./fx";

const usdToNgn: Conversion = { from: "USD", to: "NGN", rate: parseRate("1485") };
const ngnToUsd: Conversion = { from: "NGN", to: "USD", rate: parseRate("0.00066006") };

/** Rates from 10^-8 to 10^6 (8 decimals), and the amounts the API takes (up to 10^15 minor units). */
const rates = fc.bigInt({ min: 1n, max: 10n ** 14n });
const amounts = fc.integer({ min: 0, max: 1_000_000_000_000_000 });
const pairs = fc.constantFrom(["USD", "NGN"], ["NGN", "USD"]);

describe("rates as exact decimals", () => {
  it.each([
    ["1485", 148_500_000_000n],
    ["0.00066006", 66_006n],
    ["1500.5", 150_050_000_000n],
    ["0.00000001", 1n],
    ["1", 100_000_000n],
  ])("%s is %s and reads back the same", (text, scaled) => {
    expect(parseRate(text)).toBe(scaled);
    expect(formatRate(scaled)).toBe(text);
  });

  it.each(["0", "0.000000001", "-1", "1e3", "", "1.", ".5", "1,485"])("refuses %j", (text) => {
    expect(() => parseRate(text)).toThrow(RangeError);
  });

  it("formats any rate back to itself", () => {
    fc.assert(
      fc.property(rates, (rate) => {
        expect(parseRate(formatRate(rate))).toBe(rate);
      }),
    );
  });
});

describe("the debit for an amount in the target currency", () => {
  it.each([
    ["₦14,850 at 1485 is exactly $10", usdToNgn, 1_485_000, 1_000n],
    ["₦1,000 at 1485 is $0.6734…, rounded up to $0.68", usdToNgn, 100_000, 68n],
    ["1 kobo still costs a whole cent", usdToNgn, 1, 1n],
    ["nothing costs nothing", usdToNgn, 0, 0n],
    ["$11 (the notes' example) at 0.00066006 is ₦16,665.1516…, rounded up", ngnToUsd, 1_100, 1_666_516n],
    ["1 cent at 0.00066006 is ₦15.1501…, rounded up to 1,516 kobo", ngnToUsd, 1, 1_516n],
  ])("%s", (_, conversion, amount, debit) => {
    expect(debitFor(conversion, amount)).toBe(debit);
  });

  it("what the debit buys, rounded down", () => {
    expect(proceedsOf(usdToNgn, 68)).toBe(100_980n);
    expect(proceedsOf(usdToNgn, 1_000)).toBe(1_485_000n);
    expect(proceedsOf(ngnToUsd, 1_666_516)).toBe(1_100n);
    expect(proceedsOf(ngnToUsd, 15)).toBe(0n);
  });

  it("refuses amounts that are not whole minor units, and currencies without a known minor unit", () => {
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => debitFor(usdToNgn, bad)).toThrow(RangeError);
    expect(() => debitFor({ ...usdToNgn, from: "EUR" }, 100)).toThrow(RangeError);
  });

  it("creates no money: debit × rate covers the amount, exactly, and the debit buys at least the amount", () => {
    fc.assert(
      fc.property(pairs, rates, amounts, ([from, to], rate, amount) => {
        const conversion = { from: from!, to: to!, rate };
        const debit = debitFor(conversion, amount);
        // Both currencies have 2 minor digits: debit × rate ≥ amount × 10^8, in integers.
        expect(debit * rate).toBeGreaterThanOrEqual(BigInt(amount) * 10n ** 8n);
        expect(proceedsOf(conversion, debit)).toBeGreaterThanOrEqual(BigInt(amount));
      }),
    );
  });

  it("rounds up by less than one minor unit: one unit less would not buy the amount", () => {
    fc.assert(
      fc.property(pairs, rates, amounts, ([from, to], rate, amount) => {
        const conversion = { from: from!, to: to!, rate };
        const debit = debitFor(conversion, amount);
        if (debit > 0n) expect(proceedsOf(conversion, debit - 1n)).toBeLessThan(BigInt(amount));
        expect(debit * rate - BigInt(amount) * 10n ** 8n).toBeLessThan(rate);
      }),
    );
  });

  it("a larger amount never costs less", () => {
    fc.assert(
      fc.property(rates, amounts, amounts, (rate, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const conversion = { from: "USD", to: "NGN", rate };
        expect(debitFor(conversion, low)).toBeLessThanOrEqual(debitFor(conversion, high));
      }),
    );
  });
});

describe("rates around a mid-market rate", () => {
  it.each([
    ["USD/NGN 1500, 1 % spread", "1500", 100, "1485", "0.00066006"],
    ["no spread", "1500", 0, "1500", "0.00066666"],
    ["mid 1, 2.5 % spread", "1", 250, "0.975", "0.97560975"],
  ])("%s", (_, mid, spread, forward, backward) => {
    const rates = ratesAroundMid(parseRate(mid), spread);
    expect(formatRate(rates.forward)).toBe(forward);
    expect(formatRate(rates.backward)).toBe(backward);
  });

  it("refuses a spread out of range", () => {
    for (const bad of [-1, 10_000, 1.5]) expect(() => ratesAroundMid(parseRate("1500"), bad)).toThrow(RangeError);
  });

  it("a round trip never ends with more than it started with", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 14n }),
        fc.integer({ min: 0, max: 2_000 }),
        amounts,
        (mid, spread, start) => {
          const { forward, backward } = ratesAroundMid(mid, spread);
          const there = proceedsOf({ from: "USD", to: "NGN", rate: forward }, start);
          const back = proceedsOf({ from: "NGN", to: "USD", rate: backward }, there);
          expect(back).toBeLessThanOrEqual(BigInt(start));
        },
      ),
    );
  });
});
