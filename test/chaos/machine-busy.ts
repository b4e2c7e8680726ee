/**
 * How busy the whole machine was, second by second (from /proc/stat: every process, the harness's own included):
 * whether the run's late decisions fall in the seconds where every core was taken, or in calm ones.
 */
import { readFileSync } from "node:fs";

/** Clock ticks of every core since boot: busy ones, and all of them. */
export interface CpuTicks {
  busy: number;
  total: number;
}

/** The machine's CPU counters from the first line of /proc/stat: idle and iowait are idle, the rest busy. */
export function parseCpuTicks(procStat: string): CpuTicks {
  const line = procStat.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) throw new Error("no aggregate cpu line in /proc/stat");
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: total - idle, total };
}

/** Busy share (0–1) between two readings; 0 when no tick passed. */
export function busyShare(before: CpuTicks, after: CpuTicks): number {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : 0;
}

export interface MachineBusy {
  /** Busy share per second of the run (index: whole seconds since its start). */
  perSecond(): Map<number, number>;
  stop(): void;
}

/** Samples every second from `startedAt` (epoch ms); the counters are cumulative, so a late timer loses nothing. */
export function sampleMachineBusy(startedAt: number, read = () => readFileSync("/proc/stat", "utf8")): MachineBusy {
  const shares = new Map<number, number>();
  let last = parseCpuTicks(read());
  const timer = setInterval(() => {
    const now = parseCpuTicks(read());
    shares.set(Math.floor((Date.now() - startedAt) / 1_000) - 1, busyShare(last, now));
    last = now;
  }, 1_000);
  timer.unref();
  return { perSecond: () => new Map(shares), stop: () => clearInterval(timer) };
}

/** "N of M seconds at ≥ 95 % busy", and the busy share of each second named (those the late decisions fell in). */
export function busyReport(shares: Map<number, number>, seconds: number[]): string {
  const pct = (share: number | undefined) => (share === undefined ? "?" : `${Math.round(share * 100)}%`);
  const saturated = [...shares.values()].filter((s) => s >= 0.95).length;
  const named = [...new Set(seconds)].sort((a, b) => a - b).map((s) => `${s}: ${pct(shares.get(s))}`);
  return [
    `the machine (every core, /proc/stat) was ≥ 95 % busy in ${saturated} of ${shares.size} seconds`,
    ...(named.length > 0 ? [`  busy in the seconds with late decisions: ${named.join(", ")}`] : []),
  ].join("\n");
}
