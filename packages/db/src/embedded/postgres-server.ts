import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { chownSync, closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import pg from "pg";
import { postgresBinaries, type PostgresBinaries } from "./postgres-binaries";
import { serverAccount, type ServerAccount } from "./server-account";
import { preallocateWalSegments } from "./wal-preallocation";

export interface PostgresServerOptions {
  /** The cluster's own directory (PGDATA); initialised on first use. */
  clusterDir: string;
  /** Where the server's Unix socket is made; keep the path short (sockets are limited to about 100 bytes). */
  socketDir: string;
  /** The server's own log (its stdout and stderr), mode 0600. */
  logFile: string;
  /** Names the socket file (`.s.PGSQL.<port>`); the server opens no TCP port. */
  port?: number;
  /** Extra server settings, passed as `-c name=value`. */
  settings?: Record<string, string | number>;
  /** initdb without waiting for the disk: for throwaway test clusters only. */
  fastInit?: boolean;
  /** How long to wait for the server to accept connections (crash recovery included). */
  readyTimeoutMs?: number;
}

export interface PostgresServer {
  pid: number;
  /** A postgres:// URL for one database of this server, over its Unix socket. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const SUPERUSER = "postgres";
const DEFAULT_PORT = 5432;

/**
 * A real PostgreSQL server from the npm-installed binaries, reachable only through a Unix socket in a directory
 * only its owner can enter: no TCP port, so no other user of the machine can connect. Trust authentication on that
 * socket is then as strong as the directory's permissions.
 */
export async function startPostgresServer(opts: PostgresServerOptions): Promise<PostgresServer> {
  const binaries = await postgresBinaries();
  const account = serverAccount();
  const port = opts.port ?? DEFAULT_PORT;
  await ownedDirectory(opts.socketDir, account);
  const created = !existsSync(`${opts.clusterDir}/PG_VERSION`);
  if (created) await initCluster(binaries, opts, account);
  checkClusterVersion(binaries, opts.clusterDir);
  await stopLeftoverPostmaster(opts.clusterDir);
  const child = spawnServer(binaries, opts, port, account);
  const urlFor = (database: string) =>
    `postgres://${SUPERUSER}@localhost:${port}/${database}?host=${encodeURIComponent(opts.socketDir)}`;
  await waitUntilReady(child, urlFor("postgres"), opts);
  if (created && !opts.fastInit) await preallocateWalSegments(urlFor("postgres"));
  const stopOnExit = () => child.kill("SIGINT");
  process.on("exit", stopOnExit);
  return {
    pid: child.pid!,
    urlFor,
    async stop() {
      process.off("exit", stopOnExit);
      await stopChild(child);
    },
  };
}

async function ownedDirectory(dir: string, account: ServerAccount | undefined) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (account) chownSync(dir, account.uid, account.gid);
}

async function initCluster(
  binaries: PostgresBinaries,
  opts: PostgresServerOptions,
  account: ServerAccount | undefined,
) {
  await ownedDirectory(opts.clusterDir, account);
  const args = [
    `--pgdata=${opts.clusterDir}`,
    `--username=${SUPERUSER}`,
    "--auth-local=trust",
    "--auth-host=reject",
    "--encoding=UTF8",
    "--locale=C",
    ...(opts.fastInit ? ["--no-sync"] : []),
  ];
  try {
    execFileSync(binaries.initdb, args, { ...account, stdio: "pipe", env: { ...process.env, LC_MESSAGES: "C" } });
  } catch (error) {
    const output = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
    throw new Error(`initdb failed for ${opts.clusterDir}: ${output}`);
  }
}

let binaryMajor: string | undefined;

function checkClusterVersion(binaries: PostgresBinaries, clusterDir: string) {
  binaryMajor ??= /\(PostgreSQL\) (\d+)/.exec(
    execFileSync(binaries.postgres, ["--version"], { encoding: "utf8" }),
  )?.[1];
  const clusterMajor = readFileSync(`${clusterDir}/PG_VERSION`, "utf8").trim();
  if (binaryMajor && clusterMajor !== binaryMajor) {
    throw new Error(
      `${clusterDir} holds a PostgreSQL ${clusterMajor} cluster, but the installed server is PostgreSQL ${binaryMajor}; ` +
        "export its data with that version's pg_dump, or move the directory aside to start fresh",
    );
  }
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
};

/**
 * A server left running by a process that was killed (SIGKILL leaves the postmaster behind). The caller holds the
 * data directory's lock, so nobody else uses it: shut it down (fast: committed work is on disk) and start anew.
 */
async function stopLeftoverPostmaster(clusterDir: string) {
  const pidFile = `${clusterDir}/postmaster.pid`;
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return; // stale file: the server cleans it up itself
  // Killed with us, not reaped yet: PostgreSQL would take the zombie for a running postmaster and refuse to start.
  if (isZombie(pid)) return waitUntilReaped(pid);
  if (process.platform === "linux" && !commandOf(pid).includes("postgres")) return;
  await signalUntilGone(pid);
}

/** Exited, but its parent (init, once we were killed) has not collected it yet (Linux: state Z). */
const isZombie = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
};

async function waitUntilReaped(pid: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (isZombie(pid)) {
    if (Date.now() > deadline) {
      throw new Error(
        `the previous PostgreSQL server (process ${pid}) has exited but its parent has not reaped it, so PostgreSQL ` +
          `would take it for a running server: wait for it to disappear (ps -p ${pid}) and start again`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function signalUntilGone(pid: number) {
  for (const [signal, waitMs] of [
    ["SIGINT", 20_000],
    ["SIGQUIT", 5_000],
    ["SIGKILL", 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (!isRunning(pid)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

function spawnServer(
  binaries: PostgresBinaries,
  opts: PostgresServerOptions,
  port: number,
  account: ServerAccount | undefined,
) {
  const settings: Record<string, string | number> = {
    listen_addresses: "",
    unix_socket_directories: opts.socketDir,
    unix_socket_permissions: "0700",
    ...opts.settings,
  };
  const flags = Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
  const log = openSync(opts.logFile, "a", 0o600);
  if (account) chownSync(opts.logFile, account.uid, account.gid);
  try {
    // Its own process group: a Ctrl-C in the terminal reaches the platform, which stops the server last.
    const child = spawn(binaries.postgres, ["-D", opts.clusterDir, "-p", String(port), ...flags], {
      ...account,
      stdio: ["ignore", log, log],
      detached: true,
      env: { ...process.env, LC_MESSAGES: "C" },
    });
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

async function waitUntilReady(child: ChildProcess, url: string, opts: PostgresServerOptions) {
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`PostgreSQL stopped while starting; the end of ${opts.logFile}:\n${logTail(opts.logFile)}`);
    }
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      child.kill("SIGQUIT");
      throw new Error(
        `PostgreSQL did not accept connections in time; the end of ${opts.logFile}:\n${logTail(opts.logFile)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function logTail(file: string, lines = 12): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await Promise.race([exited, signalUntilGone(child.pid)]);
}
