/** `cardhold dev` as its own process, as a user starts it, so its CPU can be read apart from the load generator. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateDirectory } from "@cardhold/db";
import { freePort } from "../../test/integration/support/service-processes";
import { pidFromFile, processTree } from "./process-cpu";

export interface AllInOneProcess {
  url: string;
  testKey: string;
  child: ChildProcess;
  /** The embedded PostgreSQL's processes (postmaster and backends), now. */
  postgresPids(): number[];
  stop(): Promise<void>;
}

export async function startAllInOneProcess(env: Record<string, string>): Promise<AllInOneProcess> {
  const parent = mkdtempSync(join(tmpdir(), "cardhold-bench-"));
  privateDirectory(parent);
  const dataDir = join(parent, "data");
  const port = await freePort();
  // CPU_PROFILE_DIR: the platform process writes a V8 CPU profile there when it exits.
  const profile = process.env.CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CPU_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "packages/cli/src/main.ts", "dev"], {
    env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  const testKey = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const key = /test key: (\S+)/.exec(output)?.[1];
      if (key) resolve(key);
    });
    child.once("exit", (code) => reject(new Error(`cardhold dev exited (${code}): ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    testKey,
    child,
    postgresPids: () => {
      const postmaster = pidFromFile(join(dataDir, "pg", "cluster", "postmaster.pid"));
      return postmaster ? processTree(postmaster) : [];
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
