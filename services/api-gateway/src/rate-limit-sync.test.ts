import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@cardhold/db";
import { createRateLimiter } from "./rate-limiter";
import { createRateLimitSync, QUIET_SYNC_MS, SYNC_MS } from "./rate-limit-sync";

const defaults = { perKey: { rate: 100, burst: 100 }, perBusiness: { rate: 1_000, burst: 1_000 } };
const caller = { businessId: "bus.limited", keyId: "key.1" };
const OVERRIDE = { business_id: "bus.limited", per_key_rate: 1, per_key_burst: 2, per_business_rate: null };

/**
 * A database that answers the sync's three statements and keeps what it was asked, statement by statement; `others`
 * gives the other instances' usage rows a read returns (none by default).
 */
function recordingDb(failFirst = 0, others: () => [string, string, number][] = () => []) {
  const asked: string[] = [];
  let failures = failFirst;
  const db = {
    query: async (text: string) => {
      if (failures-- > 0) throw new Error("database away");
      if (text.includes("FROM gateway.rate_limits")) asked.push("overrides");
      else if (text.includes("INSERT INTO gateway.rate_limit_usage")) asked.push("write usage");
      else if (text.includes("FROM gateway.rate_limit_usage")) asked.push("read usage");
      else asked.push(text);
      if (text.includes("FROM gateway.rate_limits")) return { rows: [{ ...OVERRIDE, per_business_burst: null }] };
      if (text.includes("SELECT now()")) return { rows: [{ now: new Date(), usage: others() }] };
      return { rows: [], rowCount: 0 };
    },
  } as unknown as Db;
  return { db, asked };
}

const count = (asked: string[], what: string) => asked.filter((a) => a === what).length;

describe("the rate limits' sync", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shared, with requests coming: writes what it admitted and reads the others' totals every SYNC_MS", async () => {
    const { db, asked } = recordingDb();
    const limiter = createRateLimiter(defaults);
    const sync = createRateLimitSync(db, limiter, pino({ level: "silent" }), { shared: true });
    await sync.start();
    for (let i = 0; i < 10; i++) {
      sync.wake(); // what the middleware does for each request
      limiter.admit({ businessId: "bus.free", keyId: "key.1" }, Date.now());
      await vi.advanceTimersByTimeAsync(SYNC_MS);
    }
    await sync.stop();
    expect(count(asked, "read usage")).toBeGreaterThanOrEqual(10);
    expect(count(asked, "write usage")).toBeGreaterThanOrEqual(9);
    expect(count(asked, "overrides")).toBeGreaterThanOrEqual(1);
  });

  it("shared and quiet: one exchange a QUIET_SYNC_MS; a request brings the next within SYNC_MS", async () => {
    const { db, asked } = recordingDb();
    const limiter = createRateLimiter(defaults);
    const sync = createRateLimitSync(db, limiter, pino({ level: "silent" }), { shared: true });
    await sync.start();
    await vi.advanceTimersByTimeAsync(5 * QUIET_SYNC_MS);
    expect(count(asked, "read usage")).toBe(1 + 5);
    expect(count(asked, "overrides")).toBe(1 + 5); // still every second
    sync.wake();
    limiter.admit(caller, Date.now());
    await vi.advanceTimersByTimeAsync(SYNC_MS);
    expect(count(asked, "write usage")).toBe(1);
    await vi.advanceTimersByTimeAsync(SYNC_MS);
    expect(count(asked, "read usage")).toBe(1 + 5 + 2); // not quiet yet: it wrote something
    await vi.advanceTimersByTimeAsync(2 * SYNC_MS);
    expect(count(asked, "read usage")).toBe(1 + 5 + 2); // quiet again: the next is a QUIET_SYNC_MS away
    await sync.stop();
  });

  it("shared: hearing what another instance admitted keeps it at SYNC_MS and charges it here", async () => {
    let theirs = 0;
    const { db, asked } = recordingDb(0, () => [["k:bus.limited:key.1", "other", (theirs += 1)]]);
    const limiter = createRateLimiter(defaults);
    const sync = createRateLimitSync(db, limiter, pino({ level: "silent" }), { shared: true });
    await sync.start(); // the first read only learns where their totals stand
    await vi.advanceTimersByTimeAsync(QUIET_SYNC_MS + 10 * SYNC_MS);
    await sync.stop();
    expect(count(asked, "read usage")).toBeGreaterThanOrEqual(1 + 1 + 9);
    expect(limiter.admit(caller, Date.now()).admitted).toBe(false); // its burst of 2 owed to the other instance
  });

  it("alone: loads the overrides once and then asks the database nothing, however much it admits", async () => {
    const { db, asked } = recordingDb();
    const limiter = createRateLimiter(defaults);
    const sync = createRateLimitSync(db, limiter, pino({ level: "silent" }), { shared: false });
    await sync.start();
    const admitted = [1, 2, 3].map(() => limiter.admit(caller, Date.now()).admitted);
    for (let s = 0; s < 180; s++) {
      limiter.admit({ businessId: "bus.other", keyId: `key.${s}` }, Date.now());
      await vi.advanceTimersByTimeAsync(1_000);
    }
    await sync.stop();
    expect(admitted).toEqual([true, true, false]); // the override from the database: a burst of 2
    expect(asked).toEqual(["overrides"]);
  });

  it("alone: reads the overrides again until a read succeeds", async () => {
    const { db, asked } = recordingDb(1);
    const limiter = createRateLimiter(defaults);
    const sync = createRateLimitSync(db, limiter, pino({ level: "silent" }), { shared: false });
    await sync.start();
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    await sync.stop();
    expect(asked).toEqual(["overrides"]);
    expect([1, 2, 3].map(() => limiter.admit(caller, Date.now()).admitted)).toEqual([true, true, false]);
  });
});
