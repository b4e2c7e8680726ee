import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { readCpu } from "../../bench/support/process-cpu";
import { confineToCores } from "./cpu-quota";

const cgroupsWritable =
  process.getuid?.() === 0 &&
  (existsSync("/sys/fs/cgroup/cgroup.controllers") || existsSync("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"));

const cpuMs = (pid: number) => readCpu({ loop: () => [pid] }).loop!;

let loop: ChildProcess | undefined;
afterEach(() => {
  loop?.kill("SIGKILL");
  loop = undefined;
});

describe("a CPU quota for the chaos run", () => {
  it("refuses a quota that is not a positive number of cores", () => {
    expect(() => confineToCores(0)).toThrow(/above 0, not 0/);
    expect(() => confineToCores(Number.NaN)).toThrow(/above 0/);
  });

  it.skipIf(!cgroupsWritable)("holds a busy process to its share and lets it go again", async () => {
    loop = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
    const pid = loop.pid!;
    const name = `cardhold-quota-test-${pid}`;
    const release = confineToCores(0.2, { pid, name });
    try {
      expect(readFileSync(`/proc/${pid}/cgroup`, "utf8")).toContain(name);
      await sleep(200);
      const before = cpuMs(pid);
      await sleep(1_000);
      // Unconfined, the loop takes a whole core (~1,000 ms); a fifth of a core is ~200 ms.
      expect(cpuMs(pid) - before).toBeLessThan(500);
    } finally {
      await release();
    }
    expect(readFileSync(`/proc/${pid}/cgroup`, "utf8")).not.toContain(name);
  });
});
