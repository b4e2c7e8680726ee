import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BANKS, banksFor, findBank } from "./banks";
import { institutionCode, isValidNuban, nubanCheckDigit, nubanOf } from "./nuban";

const digits = (n: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(""));
const serial = digits(9);

/** The 2010 circular's algorithm as written: weights 3,7,3,3,7,3,3,7,3,3,7,3 over the 3-digit code and the serial. */
function circular2010(code: string, serialNumber: string): number {
  const weights = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
  const sum = [...(code + serialNumber)].reduce((total, d, i) => total + Number(d) * weights[i]!, 0);
  const check = 10 - (sum % 10);
  return check === 10 ? 0 : check;
}

describe("the NUBAN check digit", () => {
  it.each([
    // The CBN's own examples (NUBAN proposals v0.4, 2010): First Bank, serials 000001457 and 000000022.
    ["First Bank 000001457", "011", "000001457", 9],
    ["First Bank 000000022 (sum 30: 10 becomes 0)", "011", "000000022", 0],
    ["Access Bank 001024678", "044", "001024678", 0],
    ["GTBank 012345678", "058", "012345678", 5],
    ["a 5-digit code takes the prefix 9 (Kuda 50211: 950211)", "50211", "012345678", 6],
  ])("%s", (_, code, serialNumber, check) => {
    expect(nubanCheckDigit(code, serialNumber)).toBe(check);
    expect(isValidNuban(code, `${serialNumber}${check}`)).toBe(true);
    expect(isValidNuban(code, `${serialNumber}${(check + 1) % 10}`)).toBe(false);
  });

  it.each([
    ["a 3-digit code", "058", "000058"],
    ["a 5-digit code", "50211", "950211"],
    ["2 digits", "58", undefined],
    ["4 digits", "0058", undefined],
    ["6 digits (a NIP code is not a CBN code)", "000013", undefined],
    ["letters", "05a", undefined],
  ])("institution code of %s", (_, code, institution) => {
    expect(institutionCode(code)).toBe(institution);
  });

  it.each([
    ["9 digits", "058", "012345678"],
    ["11 digits", "058", "01234567850"],
    ["letters", "058", "01234567a5"],
    ["a bad bank code", "58", "0123456785"],
  ])("is not valid with %s", (_, code, accountNumber) => {
    expect(isValidNuban(code, accountNumber)).toBe(false);
  });

  it("refuses to compute over a bad code or serial", () => {
    expect(() => nubanCheckDigit("58", "012345678")).toThrow(RangeError);
    expect(() => nubanCheckDigit("058", "01234567")).toThrow(RangeError);
  });

  it("is the 2010 circular's algorithm for every 3-digit code", () => {
    fc.assert(
      fc.property(digits(3), serial, (code, s) => {
        expect(nubanCheckDigit(code, s)).toBe(circular2010(code, s));
      }),
    );
  });

  it("makes a valid account number of any serial, and any one changed digit of it invalid", () => {
    fc.assert(
      fc.property(
        fc.oneof(digits(3), digits(5)),
        serial,
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (code, s, position, shift) => {
          const accountNumber = nubanOf(code, s);
          expect(isValidNuban(code, accountNumber)).toBe(true);
          // Every weight (3 or 7) is prime to 10, so one changed digit always changes the sum's last digit.
          const changed = [...accountNumber];
          changed[position] = String((Number(changed[position]) + shift) % 10);
          expect(isValidNuban(code, changed.join(""))).toBe(false);
        },
      ),
    );
  });
});

describe("the bank list", () => {
  it("has unique 3- or 5-digit CBN codes and unique 6-digit NIP codes, in alphabetical order", () => {
    expect(new Set(BANKS.map((b) => b.code)).size).toBe(BANKS.length);
    expect(new Set(BANKS.map((b) => b.nipCode)).size).toBe(BANKS.length);
    for (const b of BANKS) {
      expect(institutionCode(b.code), b.name).toBeDefined();
      expect(b.nipCode, b.name).toMatch(/^\d{6}$/);
    }
    const names = BANKS.map((b) => b.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it.each([
    ["058", "Guaranty Trust Bank"],
    ["000013", "Guaranty Trust Bank"],
    ["50211", "Kuda Microfinance Bank"],
    ["090267", "Kuda Microfinance Bank"],
    ["999", undefined],
  ])("finds %s by its CBN or NIP code", (code, name) => {
    expect(findBank(code)?.name).toBe(name);
  });

  it("short-lists exactly the banks whose check digit the account number passes", () => {
    fc.assert(
      fc.property(digits(10), (accountNumber) => {
        const listed = banksFor(accountNumber);
        for (const b of BANKS) expect(listed.includes(b)).toBe(isValidNuban(b.code, accountNumber));
      }),
    );
    expect(banksFor("0123456785").map((b) => b.code)).toContain("058");
  });
});
