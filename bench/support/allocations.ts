/**
 * Bytes a benched platform process allocates per operation, from V8's sampling heap profiler (every allocation,
 * including what the collector frees): a figure that does not drift with the machine's speed as CPU time does, and
 * that sets how often the young generation is collected (each scavenge pauses the whole process for a few ms).
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

export interface AllocationReport {
  kbPerOperation: number;
  /** Where the bytes are allocated (the allocating function, and the package or service it belongs to). */
  topFunctions: Array<{ kbPerOperation: number; at: string }>;
  topPackages: Array<{ kbPerOperation: number; package: string }>;
}

export interface AllocationSampler {
  /** Node arguments and environment for the platform process. */
  nodeArgs: string[];
  env: Record<string, string>;
  begin(pid: number): void;
  end(pid: number, operations: number): Promise<AllocationReport>;
}

const packageOf = (url: string) =>
  url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
  url
    .match(/\b(services|packages|apps)\/([^/]+)/)
    ?.slice(1)
    .join("/") ??
  (url.startsWith("node:") ? url : url ? "(platform bundle)" : "(native)");

/** Sums self sizes by function and by the package of the nearest frame that has a script. */
export function summarise(head: ProfileNode, operations: number, top = 12): AllocationReport {
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, owner: string) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const here = url ? packageOf(url) : owner;
    const at = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
    if (node.selfSize > 0) {
      total += node.selfSize;
      byFunction.set(at, (byFunction.get(at) ?? 0) + node.selfSize);
      byPackage.set(here, (byPackage.get(here) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(head, "(native)");
  const kb = (bytes: number) => Number((bytes / 1024 / Math.max(1, operations)).toFixed(1));
  const largest = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    kbPerOperation: kb(total),
    topFunctions: largest(byFunction).map(([at, bytes]) => ({ kbPerOperation: kb(bytes), at })),
    topPackages: largest(byPackage).map(([name, bytes]) => ({ kbPerOperation: kb(bytes), package: name })),
  };
}

export function allocationSampler(): AllocationSampler {
  const dir = mkdtempSync(join(tmpdir(), "cardhold-allocations-"));
  let windows = 0;
  return {
    nodeArgs: ["--import", new URL("./allocation-sampler.mjs", import.meta.url).pathname],
    env: { ALLOCATION_PROFILE_DIR: dir },
    begin: (pid) => void process.kill(pid, "SIGUSR2"),
    async end(pid, operations) {
      process.kill(pid, "SIGUSR2");
      const file = join(dir, `allocations-${windows++}.json`);
      for (let waited = 0; !existsSync(file); waited += 100) {
        if (waited > 60_000) throw new Error(`no allocation profile in ${dir}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const profile = JSON.parse(readFileSync(file, "utf8")) as { head: ProfileNode };
      return summarise(profile.head, operations);
    },
  };
}
