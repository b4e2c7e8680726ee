import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { privateDirectory } from "@cardhold/db";

/** A refusal to start that needs no stack trace: one line saying what is wrong and what to do. */
export class StartRefused extends Error {}

interface LockRecord {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), so a reused pid is not mistaken for the owner. */
  started?: string;
  since: string;
}

const LOCK_FILE = "cardhold.lock";

function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function isAlive(record: LockRecord): boolean {
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = processStartTime(record.pid);
  return record.started === undefined || started === undefined || started === record.started;
}

function readLock(file: string): LockRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as LockRecord;
  } catch {
    return undefined;
  }
}

/** Refuses at once, touching nothing, when another live process holds DATA_DIR. */
export function refuseIfInUse(dataDir: string): void {
  const holder = readLock(join(dataDir, LOCK_FILE));
  if (holder && holder.pid !== process.pid && isAlive(holder)) {
    throw new StartRefused(
      `${dataDir} is in use by process ${holder.pid} (running since ${holder.since}): stop it first, or set DATA_DIR to another directory`,
    );
  }
}

/**
 * Makes DATA_DIR private and takes its lock; the returned function releases it. A lock left by a process that no
 * longer runs (killed) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  privateDirectory(dataDir);
  refuseIfOldLayout(dataDir);
  const file = join(dataDir, LOCK_FILE);
  const record: LockRecord = {
    pid: process.pid,
    started: processStartTime(process.pid),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(record) + "\n", { flag: "wx", mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) {
        refuseIfInUse(dataDir);
        throw error;
      }
      refuseIfInUse(dataDir);
      unlinkSync(file); // the holder is gone
    }
  }
  const release = () => {
    process.off("exit", release);
    if (readLock(file)?.pid === process.pid) unlinkSync(file);
  };
  process.on("exit", release);
  return release;
}

/** The first all-in-one kept PGlite's files in DATA_DIR/postgres; this version cannot read them. */
function refuseIfOldLayout(dataDir: string) {
  if (!existsSync(join(dataDir, "postgres", "PG_VERSION"))) return;
  const path = resolve(dataDir);
  throw new StartRefused(
    `${path}/postgres was made by an earlier Cardhold that used PGlite, which this version does not read. ` +
      `Move it aside to start fresh (mv ${path} ${path}.pglite); to keep its records, start that earlier version on it ` +
      'and read them out through the API first (see README, "Upgrading from PGlite")',
  );
}

/** Fails before any data is opened when the gateway's port is taken. */
export function refuseIfPortInUse(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new StartRefused(`port ${port} on ${host} is in use: stop what holds it, or set PORT`)
          : error,
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
