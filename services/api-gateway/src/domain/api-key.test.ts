import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bearerToken, generateApiKey, hashApiKey, parseApiKey } from "./api-key";

describe("api keys", () => {
  it("generates keys that parse back to their mode and differ every time", () => {
    const test = generateApiKey("test");
    const live = generateApiKey("live");
    expect(test).toMatch(/^sk\.test\./);
    expect(parseApiKey(test)).toEqual({ mode: "test" });
    expect(parseApiKey(live)).toEqual({ mode: "live" });
    expect(generateApiKey("test")).not.toBe(test);
  });

  it("rejects malformed keys", () => {
    for (const bad of [
      "",
      "sk.test.",
      "sk.prod.123456789ABCDEFGHJKLMNPQRSTUVWXYZa",
      "pk.test.x",
      generateApiKey("test") + "0",
    ]) {
      expect(parseApiKey(bad)).toBeUndefined();
    }
  });

  it("never accepts an arbitrary string that is not key-shaped", () => {
    fc.assert(fc.property(fc.string(), (s) => parseApiKey(s) === undefined || /^sk\.(test|live)\./.test(s)));
  });

  it("hashes deterministically without containing the key", () => {
    const key = generateApiKey("test");
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toContain(key.slice(8));
  });

  it("reads bearer tokens", () => {
    expect(bearerToken("Bearer sk.test.abc")).toBe("sk.test.abc");
    expect(bearerToken("bearer   sk.test.abc ")).toBe("sk.test.abc");
    expect(bearerToken("Basic abc")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
