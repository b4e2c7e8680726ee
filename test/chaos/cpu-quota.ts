import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A slow machine made on purpose: this process, and every process it starts from now on, share `cores` cores' worth
 * of CPU time (a Linux cgroup's CPU quota, over 10 ms periods so a throttled process waits milliseconds, not a tenth of
 * a second). Unlike busy loops, which the scheduler shares fairly with the platform, a quota makes every piece of work
 * take longer, as on a day when the machine's host is busy (bench/README.md, "Forty-fifth session"). Needs root and a
 * cgroup file system (v2, or v1's cpu controller). `pid`: another process to confine instead of this one. Returns a
 * function that moves the process back (if it still runs) and removes the group, once what it started is gone.
 */
export function confineToCores(cores: number, opts: { pid?: number; name?: string } = {}): () => Promise<void> {
  const pid = opts.pid ?? process.pid;
  const name = opts.name ?? `cardhold-chaos-${pid}`;
  if (!(cores > 0 && cores <= 64)) throw new Error(`a CPU quota is a number of cores above 0, not ${cores}`);
  const periodUs = 10_000;
  const quotaUs = Math.round(cores * periodUs);
  const layout = cgroupLayout();
  const group = join(layout.root, name);
  try {
    mkdirSync(group);
    layout.setQuota(group, quotaUs, periodUs);
    writeFileSync(join(group, "cgroup.procs"), String(pid));
  } catch (error) {
    throw new Error(`cannot confine the run to ${cores} core(s) in ${group}: ${(error as Error).message}`);
  }
  return async () => {
    if (existsSync(`/proc/${pid}`)) writeFileSync(join(layout.root, "cgroup.procs"), String(pid));
    // A process started under the quota may still be exiting: the group can be removed once it is empty.
    for (let tries = 0; ; tries++) {
      try {
        rmdirSync(group);
        return;
      } catch (error) {
        if (tries >= 50) throw new Error(`the CPU quota's group ${group} is not empty: ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
}

interface CgroupLayout {
  root: string;
  setQuota(group: string, quotaUs: number, periodUs: number): void;
}

function cgroupLayout(): CgroupLayout {
  const unified = "/sys/fs/cgroup";
  if (existsSync(join(unified, "cgroup.controllers"))) {
    if (!readFileSync(join(unified, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("cpu"))
      writeFileSync(join(unified, "cgroup.subtree_control"), "+cpu");
    return {
      root: unified,
      setQuota: (group, quotaUs, periodUs) => writeFileSync(join(group, "cpu.max"), `${quotaUs} ${periodUs}`),
    };
  }
  const v1 = join(unified, "cpu");
  if (existsSync(join(v1, "cpu.cfs_quota_us")))
    return {
      root: v1,
      setQuota: (group, quotaUs, periodUs) => {
        writeFileSync(join(group, "cpu.cfs_period_us"), String(periodUs));
        writeFileSync(join(group, "cpu.cfs_quota_us"), String(quotaUs));
      },
    };
  throw new Error("no cgroup CPU controller at /sys/fs/cgroup (v2) or /sys/fs/cgroup/cpu (v1)");
}
