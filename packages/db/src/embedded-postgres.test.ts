import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "./db";
import { privateDirectory, startEmbeddedPostgres } from "./embedded-postgres";

const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "cardhold-embedded-"));
  privateDirectory(dir); // as DATA_DIR is
  dirs.push(dir);
  return join(dir, "pg");
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const postmasterPid = (dir: string) =>
  Number(readFileSync(join(dir, "cluster", "postmaster.pid"), "utf8").split("\n")[0]);
const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function worldReadable(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => (statSync(path).mode & 0o007) !== 0);
}

describe("the embedded PostgreSQL", () => {
  it("is a real server reachable only through a private Unix socket", async () => {
    const dir = newDir();
    const server = await startEmbeddedPostgres({ dir });
    const db = createDb({ url: server.url, poolSize: 2 });
    try {
      expect(server.url).toContain(`host=${encodeURIComponent(join(dir, "run"))}`);
      const { rows } = await db.query<{ version: string; listen: string }>(
        "SELECT version(), current_setting('listen_addresses') AS listen",
      );
      expect(rows[0]).toMatchObject({ version: expect.stringMatching(/^PostgreSQL 18/), listen: "" });
      expect(readFileSync(join(dir, "server.log"), "utf8")).not.toMatch(/listening on IPv/);
      expect(worldReadable(dir)).toEqual([]);
    } finally {
      await db.close();
      await server.stop();
    }
  });

  it("starts from a directory given relative to the working directory (as npm start's ./.data)", async () => {
    const dir = newDir();
    const server = await startEmbeddedPostgres({ dir: relative(process.cwd(), dir) });
    const db = createDb({ url: server.url, poolSize: 1 });
    try {
      expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      expect(server.url).toContain(`host=${encodeURIComponent(join(dir, "run"))}`);
    } finally {
      await db.close();
      await server.stop();
    }
  });

  it("makes a kept cluster's WAL segments at its creation, so no commit waits while one is zero-filled", async () => {
    const kept = await startEmbeddedPostgres({ dir: newDir() });
    const throwaway = await startEmbeddedPostgres();
    const segmentsAhead = async (url: string) => {
      const db = createDb({ url, poolSize: 1 });
      try {
        const { rows } = await db.query<{ ahead: number; wanted: number }>(
          `SELECT count(*) FILTER (WHERE name > pg_walfile_name(pg_current_wal_lsn()))::int AS ahead,
                  (SELECT setting::int FROM pg_settings WHERE name = 'min_wal_size')
                    / (SELECT setting::int / 1024 / 1024 FROM pg_settings WHERE name = 'wal_segment_size') AS wanted
             FROM pg_ls_waldir() WHERE name ~ '^[0-9A-F]{24}$'`,
        );
        return rows[0]!;
      } finally {
        await db.close();
      }
    };
    try {
      const { ahead, wanted } = await segmentsAhead(kept.url);
      expect(wanted).toBe(32); // min_wal_size 512 MB in 16 MB segments
      expect(ahead).toBeGreaterThanOrEqual(wanted - 1);
      // A throwaway server does not sync its writes: making segments ahead would only cost its start.
      expect((await segmentsAhead(throwaway.url)).ahead).toBeLessThanOrEqual(1);
    } finally {
      await Promise.all([kept.stop(), throwaway.stop()]);
    }
  });

  it("stops a server left running by a killed process, then starts on the same data", async () => {
    const dir = newDir();
    // node itself (not npx → sh → tsx → node), so that the SIGKILL below reaches the process holding the server.
    const fixture = new URL("./embedded/hold-server.fixture.ts", import.meta.url).pathname;
    const holder = spawn(process.execPath, ["--import", "tsx", fixture, dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
      holder.once("exit", () => reject(new Error("the fixture exited before it was ready")));
    });
    const leftover = postmasterPid(dir);
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(isRunning(leftover)).toBe(true); // SIGKILL leaves the server behind

    const server = await startEmbeddedPostgres({ dir });
    const db = createDb({ url: server.url, poolSize: 1 });
    try {
      expect(isRunning(leftover)).toBe(false);
      expect(postmasterPid(dir)).not.toBe(leftover);
      expect((await db.query("SELECT note FROM kept")).rows).toEqual([{ note: "committed before the kill" }]);
    } finally {
      await db.close();
      await server.stop();
    }
    expect(existsSync(join(dir, "cluster", "postmaster.pid"))).toBe(false);
  });

  it("says so when, run as root, the server's account cannot reach the directory", async () => {
    if (process.getuid?.() !== 0) return;
    const closed = mkdtempSync(join(tmpdir(), "cardhold-closed-"));
    dirs.push(closed);
    await expect(startEmbeddedPostgres({ dir: join(closed, "pg") })).rejects.toThrow(/cannot reach .* is closed to it/);
  });

  it("refuses a cluster of another PostgreSQL version with a message saying what to do", async () => {
    const dir = newDir();
    const server = await startEmbeddedPostgres({ dir });
    await server.stop();
    writeFileSync(join(dir, "cluster", "PG_VERSION"), "17\n");
    await expect(startEmbeddedPostgres({ dir })).rejects.toThrow(
      /PostgreSQL 17 cluster, but the installed server is PostgreSQL 18.*pg_dump/,
    );
  });
});
