import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BillProduct } from "./bill-product";
import { CATEGORIES, findProduct, PRODUCTS } from "./catalog";
import { checkInputs, parseMinorUnits } from "./product-inputs";

const product = (id: string): BillProduct => findProduct(id)!;
const ELECTRICITY = product("bp.11pALsZ5v2NiSC34t"); // meterNumber, amount 100000–50000000, fee 10000
const DATA = product("bp.11pALsZ5pEtYdYb1z"); // phoneNumber, fixed price 100000
const AIRTIME = product("bp.11pALsZ5g3CTGabps"); // phoneNumber, amount 5000–5000000

describe("the catalog", () => {
  it("has well-formed, unique ids and consistent products", () => {
    expect(new Set(PRODUCTS.map((p) => p.id)).size).toBe(PRODUCTS.length);
    for (const p of PRODUCTS) {
      expect(p.id).toMatch(/^bp\.[1-9A-HJ-NP-Za-km-z]{17}$/);
      expect(CATEGORIES.map((c) => c.id)).toContain(p.category);
      const account = p.inputs.find((i) => i.name === p.accountInput);
      expect(account?.type, p.name).toBe("string");
      const amountInputs = p.inputs.filter((i) => i.type === "amount");
      expect(amountInputs.length, p.name).toBe(p.price === null ? 1 : 0);
      for (const input of p.inputs) {
        if (input.type === "string")
          expect(new RegExp(input.pattern).test(input.example), `${p.name} ${input.name}`).toBe(true);
        else expect(input.minAmount).toBeLessThanOrEqual(input.maxAmount);
      }
    }
  });

  it("covers airtime, data, prepaid and postpaid electricity and cable TV in NGN, and USD", () => {
    const ngn = PRODUCTS.filter((p) => p.currency === "NGN");
    for (const category of ["airtime", "mobile-data", "electricity", "cable-tv"]) {
      expect(
        ngn.some((p) => p.category === category),
        category,
      ).toBe(true);
    }
    expect(ngn.some((p) => p.name.includes("prepaid")) && ngn.some((p) => p.name.includes("postpaid"))).toBe(true);
    expect(PRODUCTS.some((p) => p.currency === "USD")).toBe(true);
  });
});

describe("checking a bill's inputs against its product", () => {
  it.each<
    [
      string,
      BillProduct,
      Record<string, unknown>,
      { amount: number; fee: number; total: number; accountNumber: string },
    ]
  >([
    [
      "amount as a string",
      ELECTRICITY,
      { meterNumber: "45000000001", amount: "150000" },
      { amount: 150_000, fee: 10_000, total: 160_000, accountNumber: "45000000001" },
    ],
    [
      "amount as a number",
      ELECTRICITY,
      { meterNumber: "4500000000123", amount: 100_000 },
      { amount: 100_000, fee: 10_000, total: 110_000, accountNumber: "4500000000123" },
    ],
    [
      "bounds are inclusive",
      ELECTRICITY,
      { meterNumber: "45000000001", amount: 50_000_000 },
      { amount: 50_000_000, fee: 10_000, total: 50_010_000, accountNumber: "45000000001" },
    ],
    [
      "a fixed price product",
      DATA,
      { phoneNumber: "08031234567" },
      { amount: 100_000, fee: 0, total: 100_000, accountNumber: "08031234567" },
    ],
    [
      "an international phone number, trimmed",
      AIRTIME,
      { phoneNumber: " +2348031234567 ", amount: "5000" },
      { amount: 5_000, fee: 0, total: 5_000, accountNumber: "+2348031234567" },
    ],
  ])("accepts %s", (_name, p, inputs, expected) => {
    const result = checkInputs(p, inputs);
    expect(result).toMatchObject({ ok: true, value: expected });
  });

  it.each<[string, BillProduct, Record<string, unknown>, Array<[string, RegExp]>]>([
    [
      "nothing given",
      ELECTRICITY,
      {},
      [
        ["inputs.meterNumber", /required/],
        ["inputs.amount", /required/],
      ],
    ],
    [
      "a short meter number and an amount below the minimum",
      ELECTRICITY,
      { meterNumber: "123", amount: "99999" },
      [
        ["inputs.meterNumber", /must match/],
        ["inputs.amount", /between 100000 and 50000000/],
      ],
    ],
    [
      "an amount above the maximum",
      ELECTRICITY,
      { meterNumber: "45000000001", amount: 50_000_001 },
      [["inputs.amount", /between/]],
    ],
    [
      "a decimal amount",
      ELECTRICITY,
      { meterNumber: "45000000001", amount: "1500.50" },
      [["inputs.amount", /whole number/]],
    ],
    [
      "a negative amount",
      ELECTRICITY,
      { meterNumber: "45000000001", amount: -150_000 },
      [["inputs.amount", /whole number/]],
    ],
    [
      "a fractional number",
      ELECTRICITY,
      { meterNumber: "45000000001", amount: 150_000.5 },
      [["inputs.amount", /whole number/]],
    ],
    [
      "a meter number sent as a number",
      ELECTRICITY,
      { meterNumber: 45000000001, amount: 150_000 },
      [["inputs.meterNumber", /must be a string/]],
    ],
    [
      "an unknown input",
      AIRTIME,
      { phoneNumber: "08031234567", amount: 5_000, pin: "1234" },
      [["inputs.pin", /not an input/]],
    ],
    [
      "an amount for a fixed-price product",
      DATA,
      { phoneNumber: "08031234567", amount: "500" },
      [["inputs.amount", /fixed price/]],
    ],
    ["a blank required input", DATA, { phoneNumber: "  " }, [["inputs.phoneNumber", /required/]]],
  ])("refuses %s, naming each input", (_name, p, inputs, problems) => {
    const result = checkInputs(p, inputs);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((x) => x.path)).toEqual(problems.map(([path]) => path));
    problems.forEach(([, message], i) => expect(result.problems[i]!.message).toMatch(message));
  });

  it("accepts exactly the amounts within the product's bounds (property)", () => {
    const spec = ELECTRICITY.inputs.find((i) => i.type === "amount")!;
    if (spec.type !== "amount") throw new Error("no amount input");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * spec.maxAmount }), fc.boolean(), (amount, asText) => {
        const result = checkInputs(ELECTRICITY, {
          meterNumber: "45000000001",
          amount: asText ? String(amount) : amount,
        });
        const inside = amount >= spec.minAmount && amount <= spec.maxAmount;
        expect(result.ok).toBe(inside);
        if (result.ok) expect(result.value.total).toBe(amount + ELECTRICITY.fee.amount);
      }),
    );
  });

  it("accepts exactly the meter numbers of 11 to 13 digits (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789a -"), minLength: 0, maxLength: 16 }), (meter) => {
        const result = checkInputs(ELECTRICITY, { meterNumber: meter, amount: 150_000 });
        expect(result.ok).toBe(/^\d{11,13}$/.test(meter.trim()));
      }),
    );
  });

  it("reads minor units only from whole non-negative numbers or digit strings (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constant(null)), (value) => {
        const parsed = parseMinorUnits(value);
        if (parsed !== undefined) {
          expect(Number.isSafeInteger(parsed) && parsed >= 0).toBe(true);
          expect(String(parsed)).toBe(typeof value === "string" ? String(Number(value.trim())) : String(value));
        }
      }),
    );
  });
});
