import { describe, expect, it } from "vitest";
import { bucketId, createRateLimiter } from "./rate-limiter";

const defaults = { perKey: { rate: 2, burst: 3 }, perBusiness: { rate: 4, burst: 5 } };
const a1 = { businessId: "bus.a", keyId: "key.1" };
const a2 = { businessId: "bus.a", keyId: "key.2" };
const b1 = { businessId: "bus.b", keyId: "key.3" };

const admittedOf = (limiter: ReturnType<typeof createRateLimiter>, caller: typeof a1, n: number, now = 0) =>
  Array.from({ length: n }, () => limiter.admit(caller, now).admitted).filter(Boolean).length;

describe("the rate limiter", () => {
  it("admits a key's burst, then refuses with Retry-After until a token refills", () => {
    const limiter = createRateLimiter(defaults);
    expect(admittedOf(limiter, a1, 5)).toBe(3);
    const refused = limiter.admit(a1, 0);
    expect(refused).toMatchObject({ admitted: false, retryAfter: 1 });
    expect(limiter.admit(a1, 500).admitted).toBe(true);
  });

  it("holds a business's keys together to the business's limit, and other businesses apart", () => {
    const limiter = createRateLimiter(defaults);
    expect(admittedOf(limiter, a1, 3) + admittedOf(limiter, a2, 3)).toBe(5);
    expect(admittedOf(limiter, b1, 3)).toBe(3);
  });

  it("takes no token from the business when the key refuses", () => {
    const limiter = createRateLimiter(defaults);
    admittedOf(limiter, a1, 10);
    expect(admittedOf(limiter, a2, 10)).toBe(2);
  });

  it("applies an override at once and goes back to the defaults when it is cleared", () => {
    const limiter = createRateLimiter(defaults);
    limiter.setOverride("bus.a", { perKey: { rate: 1, burst: 1 } });
    expect(limiter.limitsFor("bus.a")).toEqual({ perKey: { rate: 1, burst: 1 }, perBusiness: defaults.perBusiness });
    expect(admittedOf(limiter, a1, 3)).toBe(1);
    limiter.setOverride("bus.a", undefined);
    expect(limiter.limitsFor("bus.a")).toEqual(defaults);
  });

  it("reports what it admitted as running totals, once each", () => {
    const limiter = createRateLimiter(defaults);
    admittedOf(limiter, a1, 2);
    const rows = limiter.unreported();
    expect(rows).toEqual(
      expect.arrayContaining([
        { bucket: bucketId("per-key", "bus.a", "key.1"), used: 2 },
        { bucket: bucketId("per-business", "bus.a"), used: 2 },
      ]),
    );
    limiter.markReported(rows);
    expect(limiter.unreported()).toEqual([]);
  });

  it("charges what another instance admitted, as a debt paid back by the refill", () => {
    const limiter = createRateLimiter(defaults);
    limiter.chargeRemote(bucketId("per-key", "bus.a", "key.1"), 5, 0);
    expect(limiter.admit(a1, 0)).toMatchObject({ admitted: false, retryAfter: 2 });
    expect(limiter.admit(a1, 1_500).admitted).toBe(true);
  });

  it("forgets buckets that are full and idle, never one with unreported use", () => {
    const limiter = createRateLimiter(defaults);
    admittedOf(limiter, a1, 1);
    limiter.evictIdle(120_000, 60_000);
    expect(limiter.size()).toBe(2);
    limiter.markReported(limiter.unreported());
    limiter.evictIdle(120_000, 60_000);
    expect(limiter.size()).toBe(0);
  });
});
