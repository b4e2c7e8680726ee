import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import pg from "pg";
import { startPostgresServer, type PostgresServer } from "./embedded/postgres-server";
import { closedAncestor, serverAccount } from "./embedded/server-account";

export interface EmbeddedPostgres {
  /** The URL of the application database; every service opens its own pool on it. */
  url: string;
  /** The URL of another database of the same server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** The server's directory (cluster, socket, log); a throwaway temporary directory when omitted. */
  dir?: string;
  /** The application database, created when missing (default `cardhold`). */
  database?: string;
  /** Extra server settings. */
  settings?: Record<string, string | number>;
}

/** Socket file paths are limited to about 100 bytes; beyond that the socket goes to a private temporary directory. */
const MAX_SOCKET_PATH = 100;

/** Settings for a server that holds nothing worth keeping: same SQL, same locking, no waiting for the disk. */
export const THROWAWAY_SETTINGS = { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } as const;

/**
 * Settings for a server whose data is kept. min_wal_size: the WAL segments kept for reuse between checkpoints (and
 * made at the cluster's creation, embedded/wal-preallocation.ts), so that commits do not wait while a new segment is
 * zero-filled; 512 MB is about 100 s at 250 authorizations/s before the first checkpoint (default 80 MB: 15 s).
 */
export const DURABLE_SETTINGS = { min_wal_size: "512MB" } as const;

/**
 * A real PostgreSQL server started from npm packages for this process (see embedded/postgres-server.ts), with the
 * application database created on it. With `dir`, data lives there across restarts and every commit is durable.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const throwaway = opts.dir === undefined;
  // Absolute: the server resolves its socket directory from inside its cluster directory, not from ours.
  const dir = resolve(opts.dir ?? join(mkdtempSync(join(tmpdir(), "cardhold-pg-")), "pg"));
  await mkdir(dir, { recursive: true });
  if (throwaway) privateDirectory(dirname(dir));
  checkReachable(dir);
  privateDirectory(dir);
  const socket = socketDirectory(dir);
  let server: PostgresServer;
  try {
    server = await startPostgresServer({
      clusterDir: join(dir, "cluster"),
      socketDir: socket.dir,
      logFile: join(dir, "server.log"),
      fastInit: throwaway,
      settings: { max_connections: 300, ...(throwaway ? THROWAWAY_SETTINGS : DURABLE_SETTINGS), ...opts.settings },
    });
  } catch (error) {
    if (throwaway) rmSync(dirname(dir), { recursive: true, force: true });
    socket.remove();
    throw error;
  }
  const database = opts.database ?? "cardhold";
  await createDatabaseIfMissing(server.urlFor("postgres"), database);
  return {
    url: server.urlFor(database),
    urlFor: server.urlFor,
    async stop() {
      await server.stop();
      socket.remove();
      if (throwaway) rmSync(dirname(dir), { recursive: true, force: true });
    },
  };
}

/** As root, the server runs as `postgres`: every directory above its own must let that account pass. */
function checkReachable(dir: string) {
  const account = serverAccount();
  const closed = account && closedAncestor(account, dir);
  if (closed) {
    throw new Error(
      `PostgreSQL runs as the postgres account (this process is root) and cannot reach ${dir}: ${closed} is closed to it ` +
        "(give the postgres group passage with chgrp postgres and chmod g+x, or choose another directory)",
    );
  }
}

/**
 * Makes a directory readable by this user only (0700). When PostgreSQL runs as the `postgres` account (we are root),
 * that account's group may pass through it (0710) to reach the server's own directory inside, and nothing more.
 */
export function privateDirectory(dir: string): void {
  const account = serverAccount();
  if (account) {
    chownSync(dir, 0, account.gid);
    chmodSync(dir, 0o710);
  } else chmodSync(dir, 0o700);
}

function socketDirectory(dir: string): { dir: string; remove(): void } {
  const inside = join(dir, "run");
  if (Buffer.byteLength(join(inside, ".s.PGSQL.5432")) <= MAX_SOCKET_PATH)
    return { dir: inside, remove: () => undefined };
  const outside = mkdtempSync(join(tmpdir(), "cardhold-socket-"));
  const account = serverAccount();
  if (account) chownSync(outside, account.uid, account.gid);
  return { dir: outside, remove: () => rmSync(outside, { recursive: true, force: true }) };
}

export async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
