import { describe, expect, it, vi } from "vitest";
import type { Queryable } from "@cardhold/db";
import { createRoutingTables } from "./routing-tables";

function fakeDb(urls: string[]) {
  let reads = 0;
  const db = {
    query: vi.fn(async () => {
      reads += 1;
      return {
        rows: [{ id: urls[Math.min(reads, urls.length) - 1], events: [], status: "enabled", is_default: true }],
      };
    }),
  } as unknown as Queryable;
  return { db, reads: () => reads };
}

describe("routing tables", () => {
  it("reads a business's webhooks once per ttl and per business and mode", async () => {
    const { db, reads } = fakeDb(["webhook_a"]);
    const tables = createRoutingTables(60_000);
    await tables.of(db, "business_1", "test");
    await tables.of(db, "business_1", "test");
    expect(reads()).toBe(1);
    await tables.of(db, "business_1", "live");
    await tables.of(db, "business_2", "test");
    expect(reads()).toBe(3);
  });

  it("reads afresh after a change applied here, and once the ttl has passed", async () => {
    vi.useFakeTimers();
    try {
      const { db } = fakeDb(["webhook_a", "webhook_b", "webhook_c"]);
      const tables = createRoutingTables(1_000);
      expect((await tables.of(db, "business_1", "test"))[0]!.id).toBe("webhook_a");
      tables.invalidate();
      expect((await tables.of(db, "business_1", "test"))[0]!.id).toBe("webhook_b");
      vi.advanceTimersByTime(999);
      expect((await tables.of(db, "business_1", "test"))[0]!.id).toBe("webhook_b");
      vi.advanceTimersByTime(2);
      expect((await tables.of(db, "business_1", "test"))[0]!.id).toBe("webhook_c");
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not keep a table read while a change was being applied", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let reads = 0;
    const db = {
      query: async () => {
        reads += 1;
        if (reads === 1) await gate;
        return { rows: [] };
      },
    } as unknown as Queryable;
    const tables = createRoutingTables(60_000);
    const first = tables.of(db, "business_1", "test");
    tables.invalidate();
    release();
    await first;
    await tables.of(db, "business_1", "test");
    expect(reads).toBe(2);
  });
});
