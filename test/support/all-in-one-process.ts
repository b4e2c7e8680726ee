import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./build";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `cardhold dev` started as `npm start` starts it (node on the built apps/cli/dist/main.js), in its own process. */
export interface AllInOneProcess {
  child: ChildProcess;
  url: string;
  testKey: string;
  /** Everything it wrote to stdout and stderr. */
  output(): string;
  /** Resolves when the Node process has exited. */
  exited: Promise<void>;
}

export interface StartOptions {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
  /** Node options before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

/** Starts `cardhold dev` and waits for the lines that print its URL and test key; rejects with its output otherwise. */
export async function startAllInOneProcess(opts: StartOptions): Promise<AllInOneProcess> {
  await ensureBuilt();
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), "--enable-source-maps", "--no-memory-reducer", "apps/cli/dist/main.js", "dev"],
    {
      cwd: ROOT,
      env: { ...process.env, ...opts.env, DATA_DIR: opts.dataDir, PORT: String(opts.port) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<{ url: string; testKey: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`cardhold dev was not ready within ${opts.readyTimeoutMs ?? 60_000} ms:\n${output}`)),
      opts.readyTimeoutMs ?? 60_000,
    );
    const look = () => {
      const url = /Cardhold is running at (\S+)/.exec(output)?.[1];
      const testKey = /test key: (sk\.test\.\S+)/.exec(output)?.[1];
      if (url && testKey) {
        clearTimeout(timer);
        resolve({ url, testKey });
      }
    };
    child.stdout!.on("data", (d: Buffer) => {
      output += d.toString();
      look();
    });
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`cardhold dev exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`));
    });
  });
  try {
    const { url, testKey } = await ready;
    return { child, url, testKey, output: () => output, exited };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

/** The embedded server's cluster directory, as `cardhold dev` lays out DATA_DIR. */
export const clusterDirOf = (dataDir: string) => join(dataDir, "pg", "cluster");

/** postmaster.pid: line 1 the postmaster's pid, line 5 the socket directory (PostgreSQL's documented layout). */
function postmasterFile(dataDir: string): string[] | undefined {
  const file = join(clusterDirOf(dataDir), "postmaster.pid");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n") : undefined;
}

/** A URL of the application database over the embedded server's Unix socket (while it runs). */
export function embeddedDatabaseUrl(dataDir: string, database = "cardhold"): string {
  const socketDir = postmasterFile(dataDir)?.[4]?.trim() || join(dataDir, "pg", "run");
  return `postgres://postgres@localhost:5432/${database}?host=${encodeURIComponent(socketDir)}`;
}

/** `/proc/<pid>/stat` fields after the command name: [state, ppid, …]; undefined when the process is gone. */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Gone, or a zombie nobody reaped yet (it holds no resources and runs no code). */
export const isGone = (pid: number) => {
  const state = statOf(pid)?.[0];
  return state === undefined || state === "Z" || state === "X";
};

function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((candidate) => Number(statOf(candidate)?.[1]) === pid);
}

/** The pid in DATA_DIR's postmaster.pid while that process runs. */
export function postmasterPid(dataDir: string): number | undefined {
  const pid = Number(postmasterFile(dataDir)?.[0]);
  return Number.isInteger(pid) && pid > 0 && !isGone(pid) ? pid : undefined;
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
};

async function waitGone(pids: number[], timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some((pid) => !isGone(pid))) {
    if (Date.now() > deadline)
      throw new Error(`processes still running after SIGKILL: ${pids.filter((p) => !isGone(p)).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * SIGKILL. `tree`: the Node process and every PostgreSQL process of DATA_DIR (a power cut: the server does crash
 * recovery on the next start); otherwise only the Node process (the postmaster stays behind for the next start to
 * stop). Each PostgreSQL child is a session leader of its own, so they are found by parent pid: the postmaster is
 * frozen first (SIGSTOP) so that it forks nothing between the look and the kill, and no process sees another die
 * before it is killed itself. Returns the PostgreSQL pids killed.
 */
export async function killAllInOne(platform: AllInOneProcess, dataDir: string, tree: boolean): Promise<number[]> {
  // Everything frozen first, then killed: as close to an instant power cut as signals get.
  const node = platform.child.pid;
  const postmaster = tree ? postmasterPid(dataDir) : undefined;
  if (node) signal(node, "SIGSTOP");
  if (postmaster) signal(postmaster, "SIGSTOP");
  const postgres = postmaster ? [postmaster, ...childrenOf(postmaster).filter((pid) => !isGone(pid))] : [];
  for (const pid of postgres) signal(pid, "SIGSTOP");
  for (const pid of [...(node ? [node] : []), ...postgres]) signal(pid, "SIGKILL");
  await platform.exited;
  await waitGone(postgres);
  return postgres;
}

/**
 * SIGKILLs a PostgreSQL server: the postmaster and every process it forked, frozen first (as `killAllInOne` does), so
 * the server stops as in a power cut and recovers from its WAL on the next start. Returns the pids killed.
 */
export async function killPostgresServer(postmaster: number): Promise<number[]> {
  signal(postmaster, "SIGSTOP");
  const postgres = [postmaster, ...childrenOf(postmaster).filter((pid) => !isGone(pid))];
  for (const pid of postgres) signal(pid, "SIGSTOP");
  for (const pid of postgres) signal(pid, "SIGKILL");
  await waitGone(postgres);
  return postgres;
}
