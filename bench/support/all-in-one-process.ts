/** `cardhold dev` as its own process, as a user starts it, so its CPU can be read apart from the load generator. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateDirectory } from "@cardhold/db";
import {
  embeddedDatabaseUrl,
  postmasterPid,
  startAllInOneProcess,
  type AllInOneProcess,
} from "../../test/support/all-in-one-process";
import { freePort } from "../../test/integration/support/service-processes";
import { processTree } from "./process-cpu";

export interface BenchedAllInOne extends AllInOneProcess {
  /** The application database over the embedded server's socket (while it runs). */
  databaseUrl(): string;
  /** The embedded PostgreSQL's processes (postmaster and backends), now. */
  postgresPids(): number[];
  stop(): Promise<void>;
}

/**
 * On a scratch DATA_DIR; CPU_PROFILE_DIR makes the platform process write a V8 CPU profile there when it exits, and
 * BENCH_NODE_ARGS adds flags to its node command line.
 */
export async function startBenchedAllInOne(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<BenchedAllInOne> {
  const parent = mkdtempSync(join(tmpdir(), "cardhold-bench-"));
  privateDirectory(parent);
  const dataDir = join(parent, "data");
  const profile = process.env.CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CPU_PROFILE_DIR}`] : [];
  // Node and V8 flags to try on the platform process only (BENCH_NODE_ARGS="--single-threaded-gc"): how the GC and
  // flags were compared in bench/README.md.
  const extra = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const platform = await startAllInOneProcess({
    dataDir,
    port: await freePort(),
    env,
    nodeArgs: [...profile, ...extra, ...nodeArgs],
    readyTimeoutMs: 120_000,
  });
  // A bench that throws (an assertion, a 429) must not leave the platform running and burning the next run's CPU.
  const orphanGuard = () => void platform.child.kill("SIGTERM");
  process.once("exit", orphanGuard);
  return {
    ...platform,
    databaseUrl: () => embeddedDatabaseUrl(dataDir),
    postgresPids: () => {
      const postmaster = postmasterPid(dataDir);
      return postmaster ? processTree(postmaster) : [];
    },
    async stop() {
      process.off("exit", orphanGuard);
      platform.child.kill("SIGTERM");
      await platform.exited;
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
