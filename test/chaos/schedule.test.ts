import { describe, expect, it } from "vitest";
import { chaosSchedule, KILL_ORDER, windowOf } from "./schedule";

describe("the chaos run's schedule", () => {
  it.each([40, 60, 120])("for %i s: every instance killed once, each outage once, all inside the run", (seconds) => {
    const faults = chaosSchedule(seconds);
    const killed = faults.flatMap((f) => (f.kind === "kill-instance" ? [f.instance] : []));
    expect(killed.sort()).toEqual([...KILL_ORDER].sort());
    for (const kind of ["kafka-outage", "postgres-outage", "receiver-stall", "receiver-errors"]) {
      expect(faults.filter((f) => f.kind === kind)).toHaveLength(1);
    }
    for (const f of faults) expect(f.atMs).toBeLessThan(seconds * 1_000);
    expect(faults.map((f) => f.atMs)).toEqual([...faults.map((f) => f.atMs)].sort((a, b) => a - b));
  });

  it("keeps the two infrastructure outages apart, and after the kills", () => {
    for (const seconds of [40, 60, 90]) {
      const faults = chaosSchedule(seconds);
      const lastKill = Math.max(...faults.filter((f) => f.kind === "kill-instance").map((f) => f.atMs));
      const kafka = faults.find((f) => f.kind === "kafka-outage")!;
      const postgres = faults.find((f) => f.kind === "postgres-outage")!;
      expect(kafka.atMs).toBeGreaterThan(lastKill);
      expect(postgres.atMs - kafka.atMs).toBeGreaterThan(5_000);
    }
  });

  it("refuses a run too short for the faults", () => {
    expect(() => chaosSchedule(20)).toThrow(/at least 40 s/);
    expect(() => chaosSchedule(Number.NaN)).toThrow(/at least/);
  });

  it("finds the window a request overlaps, grace included", () => {
    const windows = [
      { what: "kafka", fromMs: 1_000, toMs: 2_000 },
      { what: "postgres", fromMs: 5_000, toMs: 6_000 },
    ];
    expect(windowOf(windows, 1_500, 1_600, 0)?.what).toBe("kafka");
    expect(windowOf(windows, 2_400, 2_450, 500)?.what).toBe("kafka");
    expect(windowOf(windows, 900, 1_100, 0)?.what, "sent before, cut off by it").toBe("kafka");
    expect(windowOf(windows, 2_600, 2_700, 500)).toBeUndefined();
    expect(windowOf(windows, 500, 999, 500)).toBeUndefined();
    expect(windowOf(windows, 4_000, 5_500, 0)?.what).toBe("postgres");
  });
});
