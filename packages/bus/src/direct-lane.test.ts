import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createLaneKeys, MAX_LANE_ROWS, OPENS_KEY_HEADER, splitForLane } from "./direct-lane";
import type { OutboxRow } from "./outbox";

const TOPIC = "events.v1";
let n = 0;
const row = (key: string, opts: { opens?: boolean; topic?: string; size?: number } = {}): OutboxRow => ({
  id: `msg.${++n}`,
  topic: opts.topic ?? TOPIC,
  key,
  value: JSON.stringify("x".repeat(opts.size ?? 1)),
  headers: opts.opens ? { [OPENS_KEY_HEADER]: "1" } : {},
});
const keysOf = (rows: OutboxRow[]) => rows.map((r) => r.key);

describe("splitForLane", () => {
  const cases: { name: string; rows: OutboxRow[]; known?: string[]; lane: string[]; bus: string[]; after: string[] }[] =
    [
      {
        name: "a key's opening row takes the lane",
        rows: [row("a", { opens: true })],
        lane: ["a"],
        bus: [],
        after: [],
      },
      { name: "a row of an unknown key goes on the bus", rows: [row("a")], lane: [], bus: ["a"], after: [] },
      {
        name: "a row of a key known to the lane takes it",
        rows: [row("a")],
        known: ["a"],
        lane: ["a"],
        bus: [],
        after: [],
      },
      {
        name: "a row behind an opening row of its key in the batch follows it",
        rows: [row("a", { opens: true }), row("a")],
        lane: ["a", "a"],
        bus: [],
        after: [],
      },
      {
        name: "another topic never takes the lane, and waits for the post when its key is in it",
        rows: [row("a", { opens: true }), row("a", { topic: "ledger.v1" }), row("b", { topic: "ledger.v1" })],
        lane: ["a"],
        bus: ["b"],
        after: ["a"],
      },
      {
        name: "once a key's row is on the bus its later rows stay there, even one marked opening",
        rows: [row("a"), row("a", { opens: true })],
        known: [],
        lane: [],
        bus: ["a", "a"],
        after: [],
      },
    ];
  it.each(cases)("$name", ({ rows, known, lane, bus, after }) => {
    const split = splitForLane(rows, TOPIC, new Set(known));
    expect({ lane: keysOf(split.lane), bus: keysOf(split.bus), after: keysOf(split.after) }).toEqual({
      lane,
      bus,
      after,
    });
  });

  it("sends what passes the size limits on the bus, behind the post when its key is in it", () => {
    const rows = Array.from({ length: MAX_LANE_ROWS + 2 }, (_, i) => row(i < MAX_LANE_ROWS + 1 ? `k${i}` : "k0"));
    const split = splitForLane(rows, TOPIC, new Set(rows.map((r) => r.key)));
    expect(split.lane).toHaveLength(MAX_LANE_ROWS);
    expect(keysOf(split.bus)).toEqual([`k${MAX_LANE_ROWS}`]);
    expect(keysOf(split.after)).toEqual(["k0"]);
    const big = splitForLane([row("a", { opens: true, size: 300 * 1024 })], TOPIC, new Set());
    expect(keysOf(big.bus)).toEqual(["a"]);
  });

  it("keeps every row once, and never puts a key's row on the lane after one of its rows went on the bus", () => {
    const rowsOf = fc.array(
      fc.record({ key: fc.constantFrom("a", "b", "c"), opens: fc.boolean(), other: fc.boolean() }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(rowsOf, fc.subarray(["a", "b", "c"]), (specs, known) => {
        const rows = specs.map((s) => row(s.key, { opens: s.opens, topic: s.other ? "other.v1" : TOPIC }));
        const split = splitForLane(rows, TOPIC, new Set(known));
        expect([...split.lane, ...split.bus, ...split.after].map((r) => r.id).sort()).toEqual(
          rows.map((r) => r.id).sort(),
        );
        const onLane = new Set(split.lane.map((r) => r.id));
        const busSeen = new Set<string>();
        for (const r of rows.filter((x) => x.topic === TOPIC)) {
          if (onLane.has(r.id)) expect(busSeen.has(r.key)).toBe(false);
          else busSeen.add(r.key);
        }
      }),
    );
  });
});

describe("createLaneKeys", () => {
  it("forgets the oldest key past its capacity, and a key added again is young again", () => {
    const keys = createLaneKeys(2);
    keys.add("a");
    keys.add("b");
    keys.add("a");
    keys.add("c");
    expect(["a", "b", "c"].map((k) => keys.has(k))).toEqual([true, false, true]);
    keys.clear();
    expect(keys.has("a")).toBe(false);
  });
});
