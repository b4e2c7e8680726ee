import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { Db } from "@cardhold/db";
import { createDeadlineSweeper } from "./deadline-sweeper";
import type { DecisionWaiters } from "./decision-waiters";
import type { TimeoutDefaults } from "./timeout-defaults";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The authorizations table as the sweeper reads it (deadlines by id), and timeout defaults that take `defaultMs` each
 * and find the authorization already decided (nothing returned). Records when each default began.
 */
function tableOfDeadlines(defaultMs: number) {
  const due = new Map<string, number>();
  const began = new Map<string, number>();
  const attempts = new Map<string, number>();
  const starts: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  let reads = 0;
  const readsWhenBegan = new Map<string, number>();
  const open = (excluding: string[]) => [...due].filter(([id]) => !excluding.includes(id)).sort((a, b) => a[1] - b[1]);
  const query = async (text: string, values: unknown[] = []) => {
    reads += 1;
    if (text.includes("SELECT id, decision_due_at, account_id FROM engine.authorizations")) {
      const [limit, excluding] = values as [number, string[]];
      const ids = open(excluding).slice(0, limit);
      const rows = ids.map(([id, at]) => ({ id, decision_due_at: new Date(at), account_id: `account.${id}` }));
      return { rows, rowCount: ids.length };
    }
    throw new Error(`unexpected statement: ${text}`);
  };
  const defaults: TimeoutDefaults = {
    async apply(id) {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      began.set(id, Date.now());
      readsWhenBegan.set(id, reads);
      starts.push(id);
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      try {
        if (id.startsWith("broken")) throw new Error("a default that cannot be applied");
        await sleep(defaultMs);
        // Held by another transaction the first time: left open, nothing returned.
        if (id.startsWith("held") && attempts.get(id) === 1) return undefined;
        due.delete(id); // decided (by this default, or meanwhile by another)
        return undefined;
      } finally {
        running -= 1;
      }
    },
  };
  const db = { query } as unknown as Db;
  return {
    db,
    defaults,
    due,
    began,
    attempts,
    starts,
    mostAtOnce: () => mostAtOnce,
    reads: () => reads,
    readsWhenBegan,
  };
}

const nobodyWaiting = {
  isWaiting: () => false,
  dueWithin: () => [],
  decided: () => undefined,
} as unknown as DecisionWaiters;

/** Requests in the sweeper's process wait for these authorizations, due at the table's deadlines. */
const waitingFor = (table: ReturnType<typeof tableOfDeadlines>, ids: string[]) =>
  ({
    isWaiting: (id: string) => ids.includes(id),
    dueWithin: (ms: number) => ids.filter((id) => (table.due.get(id) ?? Infinity) <= Date.now() + ms),
    decided: () => undefined,
  }) as unknown as DecisionWaiters;

/** A sweeper on the table with no grace, nobody waiting in its process (unless `waiters` says otherwise). */
const sweeperOn = (table: ReturnType<typeof tableOfDeadlines>, pollMs?: number, waiters = nobodyWaiting) =>
  createDeadlineSweeper({
    db: table.db,
    logger: pino({ level: "silent" }),
    waiters,
    defaults: table.defaults,
    graceMs: 0,
    pollMs,
  });

describe("the deadline sweeper", () => {
  it("starts a default that falls due while earlier ones are under way when a place frees, not after their batch", async () => {
    const table = tableOfDeadlines(300);
    const now = Date.now();
    for (let i = 1; i <= 17; i++) table.due.set(`a${i}`, now - 10); // a killed engine's, all overdue at once
    table.due.set("late", now + 150);
    const sweeper = sweeperOn(table);
    sweeper.start();
    while (!table.began.has("late") && Date.now() - now < 3_000) await sleep(5);
    await sweeper.stop();
    expect(table.mostAtOnce()).toBe(16);
    // The first sixteen took every place until ~300 ms; a17 and then `late` (due at 150 ms) took the two that freed.
    expect(table.began.get("late")! - now).toBeLessThan(450);
  });

  it("applies each overdue authorization's default once, however many sweeps find it open meanwhile", async () => {
    const table = tableOfDeadlines(200);
    const now = Date.now();
    for (let i = 1; i <= 3; i++) table.due.set(`b${i}`, now - 10);
    // Sweeps every 20 ms while the defaults take 200 ms each.
    const sweeper = sweeperOn(table, 20);
    sweeper.start();
    await sleep(500);
    await sweeper.stop();
    expect(table.starts.sort()).toEqual(["b1", "b2", "b3"]);
  });

  it("tries a default that failed again a second later, not at every sweep that finds it overdue", async () => {
    const table = tableOfDeadlines(10);
    table.due.set("broken-1", Date.now() - 10);
    const sweeper = sweeperOn(table);
    sweeper.start();
    await sleep(600); // an overdue authorization left open is looked at every 25 ms
    const inFirst600Ms = table.attempts.get("broken-1");
    await sleep(700);
    await sweeper.stop();
    expect(inFirst600Ms).toBe(1);
    expect(table.attempts.get("broken-1")).toBe(2);
  });

  it("leaves the authorizations its process's requests wait for to them: no reads every 25 ms while they stay open", async () => {
    const table = tableOfDeadlines(10);
    const now = Date.now();
    // Overdue, its request applying the default (which takes a while under load): it stays open meanwhile.
    for (let i = 1; i <= 3; i++) table.due.set(`waited-${i}`, now - 10);
    table.due.set("killed-engines", now + 100);
    const sweeper = sweeperOn(table, 1_000, waitingFor(table, ["waited-1", "waited-2", "waited-3"]));
    sweeper.start();
    await sleep(600);
    await sweeper.stop();
    expect(table.starts).toEqual(["killed-engines"]);
    expect(table.began.get("killed-engines")! - now).toBeLessThan(300);
    // The first poll's read, the alarm's sweep and the next deadline read after it: no recheck every 25 ms.
    expect(table.reads()).toBeLessThanOrEqual(4);
  });

  it("hands the overdue ones it read before to the defaults when the alarm rings, with no read in between", async () => {
    const table = tableOfDeadlines(10);
    const now = Date.now();
    table.due.set("k1", now + 100);
    table.due.set("k2", now + 100);
    const sweeper = sweeperOn(table);
    sweeper.start();
    while (!table.began.has("k2") && Date.now() - now < 2_000) await sleep(5);
    await sweeper.stop();
    expect(table.began.get("k1")! - now).toBeGreaterThanOrEqual(100);
    expect(table.began.get("k1")! - now).toBeLessThan(200);
    // The poll's one read at the start; none between the alarm and the defaults.
    expect(table.readsWhenBegan.get("k1")).toBe(1);
    expect(table.readsWhenBegan.get("k2")).toBe(1);
  });

  it("looks again within tens of ms at one another transaction held when its default was tried", async () => {
    const table = tableOfDeadlines(10);
    const now = Date.now();
    table.due.set("held-1", now - 10);
    const sweeper = sweeperOn(table, 1_000);
    sweeper.start();
    while (table.due.has("held-1") && Date.now() - now < 2_000) await sleep(5);
    await sweeper.stop();
    expect(table.attempts.get("held-1")).toBe(2);
    expect(Date.now() - now).toBeLessThan(300);
  });

  it("reads no more deadlines while its lanes have as many queued as they run", async () => {
    const table = tableOfDeadlines(300);
    const now = Date.now();
    for (let i = 1; i <= 200; i++) table.due.set(`backlog-${i}`, now - 10); // after an outage: a backlog overdue
    const sweeper = sweeperOn(table);
    sweeper.start();
    await sleep(450);
    const readsWhileFull = table.reads();
    const startedWhileFull = table.starts.length;
    await sweeper.stop();
    // One read found 50: 16 ran, then the next 16 at ~300 ms, 18 still queued; the sweeps woken meanwhile (each
    // default found its authorization open) read nothing. Without the limit: 17 reads by then.
    expect(startedWhileFull).toBeGreaterThanOrEqual(16);
    expect(startedWhileFull).toBeLessThanOrEqual(50);
    expect(readsWhileFull).toBe(1);
  });
});
