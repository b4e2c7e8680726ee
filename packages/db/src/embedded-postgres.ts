import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { createDb, type Db } from "./db";

export interface EmbeddedPostgres {
  /** A postgres:// URL that pg clients use like any server. */
  url: string;
  /**
   * The one pool to use: a single connection. PGlite has one session, and its socket server interleaves the
   * protocol messages of different connections, so two connections running parameterised queries at once can
   * bind one query's values to the other's statement. Share this Db; do not open more connections to `url`.
   */
  db: Db;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Directory for the data files; in memory when omitted. */
  dataDir?: string;
  port?: number;
  /** Connections accepted at once (default 4: the shared pool plus a debugging client). */
  maxConnections?: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) behind a Postgres wire-protocol socket, so services use the same pg
 * driver and SQL as against a real server. It runs one transaction at a time: never hold one across network calls.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  if (opts.dataDir) await mkdir(opts.dataDir, { recursive: true });
  const db = opts.dataDir ? await PGlite.create(opts.dataDir) : await PGlite.create();
  const port = opts.port ?? (await freePort());
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: opts.maxConnections ?? 4 });
  await server.start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const pool = createDb({ url, poolSize: 1, applicationName: "embedded" });
  return {
    url,
    db: pool,
    async stop() {
      await pool.close();
      await server.stop();
      await db.close();
    },
  };
}
