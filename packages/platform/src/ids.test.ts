import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idTime, isId, newId, newIdBody } from "./ids";

describe("ids", () => {
  it("are the prefix plus 17 base58 characters", () => {
    const id = newId("customer");
    expect(id).toMatch(/^cus\.[1-9A-HJ-NP-Za-km-z]{17}$/);
    expect(isId("customer", id)).toBe(true);
    expect(isId("card", id)).toBe(false);
    expect(isId("customer", "cus.0OIl")).toBe(false);
  });

  it("sort by creation time, also within one millisecond", () => {
    const ids = Array.from({ length: 1000 }, () => newId("customer"));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sort like their timestamps for any two times", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 47 }), fc.integer({ min: 1, max: 2 ** 40 }), (t, dt) => {
        const earlier = newIdBody(t + 2 ** 46);
        const later = newIdBody(t + 2 ** 46 + dt + 1);
        return earlier < later;
      }),
    );
  });

  it("carry the millisecond they were made in, and count up within one", () => {
    // Later than any time the other cases used: the generator is monotonic within the process.
    const base = 2 ** 48 - 2 ** 44;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 40 }), { minLength: 1, maxLength: 20 }), (offsets) => {
        const start = Math.max(base, (idTime(`cus.${newIdBody(base)}`) ?? 0) + 1);
        for (const t of [...offsets].sort((a, b) => a - b).map((o) => start + o)) {
          const first = newIdBody(t);
          const second = newIdBody(t);
          if (idTime(`cus.${first}`) !== t || idTime(`cus.${second}`) !== t || !(first < second)) return false;
        }
        return true;
      }),
    );
  });
});
