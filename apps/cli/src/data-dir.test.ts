import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lockDataDir, refuseIfInUse, refuseIfPortInUse, StartRefused } from "./data-dir";

const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "cardhold-datadir-"));
  dirs.push(dir);
  return join(dir, "data");
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A process that stays alive until killed, holding nothing: it plays a running platform. */
function sleeper() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  return child;
}

describe("the data directory", () => {
  it("is private (0700, or 0710 for the postgres group when run as root) and locked to one process", () => {
    const dir = newDir();
    const release = lockDataDir(dir);
    const mode = statSync(dir).mode & 0o777;
    expect(mode === 0o700 || (process.getuid?.() === 0 && mode === 0o710)).toBe(true);
    expect(statSync(join(dir, "cardhold.lock")).mode & 0o777).toBe(0o600);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a second platform at once, naming the running process, and takes over from a dead one", async () => {
    const dir = newDir();
    mkdirSync(dir, { recursive: true });
    const other = sleeper();
    await new Promise((resolve) => other.once("spawn", resolve));
    writeFileSync(join(dir, "cardhold.lock"), JSON.stringify({ pid: other.pid, since: "2026-01-01T00:00:00.000Z" }));
    try {
      expect(() => refuseIfInUse(dir)).toThrow(StartRefused);
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${other.pid} \\(running since 2026-01-01`));
    } finally {
      other.kill("SIGKILL");
      await new Promise((resolve) => other.once("exit", resolve));
    }
    const release = lockDataDir(dir);
    release();
  });

  it("does not mistake a reused process id for the platform that wrote the lock", () => {
    const dir = newDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "cardhold.lock"),
      JSON.stringify({ pid: 1, started: "1", since: "2026-01-01T00:00:00.000Z" }),
    );
    lockDataDir(dir)();
  });

  it("refuses a data directory made by the PGlite build, saying how to start fresh", () => {
    const dir = newDir();
    mkdirSync(join(dir, "postgres"), { recursive: true });
    writeFileSync(join(dir, "postgres", "PG_VERSION"), "18\n");
    expect(() => lockDataDir(dir)).toThrow(/made by an earlier Cardhold that used PGlite.*mv /);
  });

  it("refuses a port in use", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      await expect(refuseIfPortInUse(port, "127.0.0.1")).rejects.toThrow(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      holder.close();
    }
    await refuseIfPortInUse(port, "127.0.0.1");
  });
});
