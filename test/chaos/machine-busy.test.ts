import { describe, expect, it } from "vitest";
import { busyReport, busyShare, parseCpuTicks } from "./machine-busy";

const stat = (user: number, idle: number, iowait = 0) =>
  `cpu  ${user} 0 0 ${idle} ${iowait} 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 1 2 3\n`;

describe("how busy the machine was", () => {
  it("reads the aggregate line of /proc/stat: idle and iowait idle, every other tick busy", () => {
    expect(parseCpuTicks("cpu  10 2 3 100 7 1 1 1 9 9\ncpu0 1 1 1 1 1 1 1 1")).toEqual({ busy: 18, total: 125 });
    expect(() => parseCpuTicks("intr 1 2")).toThrow(/cpu line/);
  });

  it("gives the busy share between two readings", () => {
    expect(busyShare(parseCpuTicks(stat(100, 100)), parseCpuTicks(stat(250, 150)))).toBe(0.75);
    expect(busyShare(parseCpuTicks(stat(100, 100, 10)), parseCpuTicks(stat(100, 190, 20)))).toBe(0);
    expect(busyShare(parseCpuTicks(stat(5, 5)), parseCpuTicks(stat(5, 5)))).toBe(0);
  });

  it("counts the saturated seconds and shows those the late decisions fell in, once each, in order", () => {
    const shares = new Map([
      [0, 0.4],
      [1, 0.97],
      [2, 1],
      [3, 0.5],
    ]);
    expect(busyReport(shares, [2, 1, 2, 9])).toBe(
      [
        "the machine (every core, /proc/stat) was ≥ 95 % busy in 2 of 4 seconds",
        "  busy in the seconds with late decisions: 1: 97%, 2: 100%, 9: ?",
      ].join("\n"),
    );
    expect(busyReport(shares, [])).toBe("the machine (every core, /proc/stat) was ≥ 95 % busy in 2 of 4 seconds");
  });
});
