/**
 * Databases for tests: one embedded PostgreSQL server for the whole test run (started by `startTestServer`, the
 * vitest global setup) and a fresh database on it per test file. A test that runs without the global setup gets a
 * server of its own.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDb, type Db } from "./db";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres";

/** Where the global setup tells test workers the shared server is (the admin URL of its `postgres` database). */
export const TEST_SERVER_ENV = "CARDHOLD_TEST_POSTGRES_URL";

export interface TestDatabase {
  url: string;
  db: Db;
  /** Drops the database (and stops the server when it was this test's own). */
  stop(): Promise<void>;
}

/** The vitest global setup: starts the run's server; the returned function stops it. */
export async function startTestServer(): Promise<() => Promise<void>> {
  const server = await startEmbeddedPostgres({ database: "postgres" });
  process.env[TEST_SERVER_ENV] = server.url;
  return () => server.stop();
}

export async function createTestDatabase(opts: { poolSize?: number } = {}): Promise<TestDatabase> {
  const shared = process.env[TEST_SERVER_ENV];
  const own: EmbeddedPostgres | undefined = shared ? undefined : await startEmbeddedPostgres({ database: "postgres" });
  const adminUrl = shared ?? own!.url;
  const name = `test_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = databaseUrl(adminUrl, name);
  const db = createDb({ url, poolSize: opts.poolSize ?? 10, applicationName: "test" });
  return {
    url,
    db,
    async stop() {
      await db.close();
      if (own) return own.stop();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** The same server's URL with another database name. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
