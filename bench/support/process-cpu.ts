/**
 * CPU time per process from /proc (user + system, in ms), for "CPU per operation" figures that hold on a shared
 * machine: wall-clock times drift with what else runs, CPU spent by a process does not (much).
 */
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface ProcStat {
  pid: number;
  ppid: number;
  cpuMs: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, and 16–17 the time of its children that
    // exited and were waited for (a PostgreSQL backend's, once the postmaster reaps it).
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [number, number, number, number];
    return { pid, ppid: Number(fields[1]), cpuMs: (utime + stime + cutime + cstime) * TICK_MS };
  } catch {
    return undefined;
  }
}

function allStats(): ProcStat[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== undefined);
}

/** The pid and every descendant of it, alive now. */
export function processTree(root: number): number[] {
  const stats = allStats();
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const s of stats) {
      if (tree.has(s.ppid) && !tree.has(s.pid)) {
        tree.add(s.pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/** A named group of processes (e.g. "postgres": the postmaster and its backends), resolved at each reading. */
export type ProcessGroups = Record<string, () => number[]>;

export type CpuReading = Record<string, number>;

/**
 * CPU ms per group. A process that exits between readings (a backend closing) is counted on: its time moves to its
 * parent's children time once the parent waits for it, and the parent is in the group. (Before, that time was lost,
 * and a step in which a pool closed idle connections could read 0 ms for PostgreSQL.)
 */
export function readCpu(groups: ProcessGroups): CpuReading {
  const reading: CpuReading = {};
  for (const [name, pids] of Object.entries(groups)) {
    reading[name] = pids().reduce((sum, pid) => sum + (readStat(pid)?.cpuMs ?? 0), 0);
  }
  return reading;
}

/** CPU ms per operation for each group between two readings, plus the total. */
export function cpuPerOperation(before: CpuReading, after: CpuReading, operations: number): Record<string, number> {
  const per: Record<string, number> = {};
  let total = 0;
  for (const name of Object.keys(after)) {
    const ms = Math.max(0, after[name]! - (before[name] ?? 0)) / operations;
    per[name] = Number(ms.toFixed(2));
    total += ms;
  }
  per.total = Number(total.toFixed(2));
  return per;
}

/**
 * CPU ms of the threads of `pid` whose name matches `name` (a JVM's "C2_CompilerThre…"), from /proc/<pid>/task: what
 * part of a process's time went to, e.g., compiling.
 */
export function threadCpuMs(pid: number, name: RegExp): number {
  let ms = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        if (!name.test(readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim())) continue;
        const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const [utime, stime] = text
          .slice(text.lastIndexOf(")") + 2)
          .split(" ")
          .slice(11, 13)
          .map(Number);
        ms += (utime! + stime!) * TICK_MS;
      } catch {
        // the thread ended between the listing and the read
      }
    }
  } catch {
    // the process is gone
  }
  return ms;
}

/** The pid in the first line of a pid file (postmaster.pid, Kafka's pid file), or undefined. */
export function pidFromFile(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, "utf8").split("\n")[0]!.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
