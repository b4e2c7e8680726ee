import { describe, expect, it } from "vitest";
import { idTime, mayStillArrive, newId } from "./ids";
// Its own file: ids.test.ts moves this module's monotonic clock far into the future.

describe("an id's time", () => {
  it("is read back from the id, and only ids made moments ago may still be on their way", () => {
    const now = Date.now();
    const id = newId("customer");
    expect(Math.abs(idTime(id)! - now)).toBeLessThan(50);
    expect(mayStillArrive(id, 10_000)).toBe(true);
    expect(mayStillArrive(id, 10_000, now + 60_000)).toBe(false);
    for (const notAnId of ["", "cus.", "cus.0000000000000000O", "nope", "cus.11111111111111111"])
      expect(mayStillArrive(notAnId, 10_000)).toBe(false);
  });
});
