import { describe, expect, it } from "vitest";
import { keysAt, PREVIOUS_KEY_GRACE_MS, rolledKeys, type SealedKeys } from "./signing-key-roll";

const ROLLED_AT = new Date("2026-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(ROLLED_AT.getTime() + ms);

describe("rolling a signing key", () => {
  it("keeps the replaced key for 24 h", () => {
    expect(rolledKeys({ current: "v1:a", previous: null }, "v1:b", ROLLED_AT)).toEqual({
      current: "v1:b",
      previous: { sealed: "v1:a", expiresAt: new Date("2026-03-02T12:00:00.000Z") },
    });
  });

  it("keeps only the key just replaced when rolled again within the grace", () => {
    const once = rolledKeys({ current: "v1:a", previous: null }, "v1:b", ROLLED_AT);
    expect(rolledKeys(once, "v1:c", at(3_600_000))).toEqual({
      current: "v1:c",
      previous: { sealed: "v1:b", expiresAt: at(3_600_000 + PREVIOUS_KEY_GRACE_MS) },
    });
  });

  const rolled: SealedKeys = rolledKeys({ current: "v1:a", previous: null }, "v1:b", ROLLED_AT);
  it.each([
    ["just after the roll", 0, true],
    ["a millisecond before the grace ends", PREVIOUS_KEY_GRACE_MS - 1, true],
    ["when the grace ends", PREVIOUS_KEY_GRACE_MS, false],
    ["after it", PREVIOUS_KEY_GRACE_MS + 1, false],
  ])("%s the previous key is kept: %s", (_when, elapsed, kept) => {
    const keys = keysAt(rolled, at(elapsed));
    expect(keys.current).toBe("v1:b");
    expect(keys.previous !== null).toBe(kept);
  });

  it("changes nothing without a previous key", () => {
    const keys = { current: "v1:a", previous: null };
    expect(keysAt(keys, ROLLED_AT)).toBe(keys);
  });
});
