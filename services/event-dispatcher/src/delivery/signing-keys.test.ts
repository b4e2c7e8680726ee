import { describe, expect, it } from "vitest";
import { newDataKey, signingKeySealer, type SigningKeySealer } from "@cardhold/platform";
import { createSigningKeyCache } from "./signing-keys";

function counting(sealer: SigningKeySealer) {
  const counted = { opens: 0, ...sealer };
  counted.open = (id, sealed) => {
    counted.opens++;
    return sealer.open(id, sealed);
  };
  return counted;
}

describe("the signing key cache", () => {
  it("opens a webhook's key once per version, again after a roll, and refuses what it cannot open", () => {
    const sealer = counting(signingKeySealer(newDataKey()));
    const cache = createSigningKeyCache(sealer);
    const v1 = sealer.seal("wh.a", "first-key-0123456789");
    expect(cache.open("wh.a", v1)).toBe("first-key-0123456789");
    expect(cache.open("wh.a", v1)).toBe("first-key-0123456789");
    expect(sealer.opens).toBe(1);
    const v2 = sealer.seal("wh.a", "rolled-key-0123456789");
    expect(cache.open("wh.a", v2)).toBe("rolled-key-0123456789");
    expect(sealer.opens).toBe(2);
    expect(() => cache.open("wh.b", v2)).toThrow(/^the signing key of webhook wh\.b cannot be opened/);
    expect(() => cache.open("wh.a", signingKeySealer(newDataKey()).seal("wh.a", "other"))).toThrow(/SECRETS_KEY/);
  });

  it("caches a webhook's current and previous key apart, so signing with both during a roll opens each once", () => {
    const sealer = counting(signingKeySealer(newDataKey()));
    const cache = createSigningKeyCache(sealer);
    const previous = sealer.seal("wh.a", "old-key-0123456789");
    const current = sealer.seal("wh.a", "new-key-0123456789");
    for (let i = 0; i < 3; i++) {
      expect(cache.open("wh.a", current)).toBe("new-key-0123456789");
      expect(cache.open("wh.a", previous, "previous")).toBe("old-key-0123456789");
    }
    expect(sealer.opens).toBe(2);
  });

  it("keeps at most `max` webhooks, dropping the oldest", () => {
    const sealer = counting(signingKeySealer(newDataKey()));
    const cache = createSigningKeyCache(sealer, 2);
    const sealed = ["wh.a", "wh.b", "wh.c"].map((id) => [id, sealer.seal(id, `${id}-key-0123456789`)] as const);
    for (const [id, s] of sealed) cache.open(id, s);
    expect(sealer.opens).toBe(3);
    cache.open("wh.c", sealed[2]![1]);
    expect(sealer.opens).toBe(3);
    cache.open("wh.a", sealed[0]![1]);
    expect(sealer.opens).toBe(4);
  });
});
