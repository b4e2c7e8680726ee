import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/** Runs one SQL statement with bound parameters and gives back its rows. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
}

/** PostgreSQL (a server, or PGlite embedded in this process): one transaction per piece of work. */
export interface Database {
  readonly kind: "postgres" | "pglite";
  /** Runs `work` in one transaction: commits when it resolves, rolls back when it throws. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; when set, the wallets live on that server. */
  databaseUrl?: string;
  /** Where the embedded PGlite keeps its files when there is no databaseUrl; in memory when neither is set. */
  dataDir?: string;
  /** Connections to the server (default 10). */
  poolSize?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.poolSize ?? 10) : openPglite(opts.dataDir);
}

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: "wallet-receiver" });
  pool.on("error", (error) => console.error("wallet-receiver: idle database connection failed:", error.message));
  return {
    kind: "postgres",
    async transaction(work) {
      const client = await pool.connect();
      const sql: Sql = {
        query: async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as Row[],
      };
      try {
        await client.query("BEGIN");
        const result = await work(sql);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** PGlite runs one transaction at a time, so row locks never wait here; they matter on a server. */
async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const db = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  return {
    kind: "pglite",
    transaction: (work) =>
      db.transaction((tx) =>
        work({ query: async <Row>(text: string, params?: unknown[]) => (await tx.query<Row>(text, params)).rows }),
      ),
    close: () => db.close(),
  };
}
