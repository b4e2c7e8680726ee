import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Db } from "./db";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE_NAME = /^(\d{3,})_([\w-]+)\.sql$/;
const SCHEMA_NAME = /^[a-z][a-z0-9_]*$/;

/** Reads `NNN_name.sql` files in version order; a gap or a duplicate version is an error. */
export async function readMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_NAME.exec(file);
    if (!match) throw new Error(`migration file name must look like 001_create_things.sql: ${file}`);
    const version = Number(match[1]);
    if (version !== migrations.length + 1)
      throw new Error(`migration ${file}: expected version ${migrations.length + 1}`);
    migrations.push({ version, name: match[2]!, sql: await readFile(join(dir, file), "utf8") });
  }
  return migrations;
}

const checksum = (sql: string) => createHash("sha256").update(sql).digest("hex");

/**
 * Applies the pending forward-only migrations of one service's schema, each in its own transaction together with
 * its record in <schema>.<historyTable> (schema_migrations for the service's own files). An applied migration whose file has since changed stops the start.
 */
export async function migrate(
  db: Db,
  schema: string,
  migrations: Migration[],
  historyTable = "schema_migrations",
): Promise<number[]> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`bad schema name ${schema}`);
  if (!SCHEMA_NAME.test(historyTable)) throw new Error(`bad history table name ${historyTable}`);
  const history = `${schema}.${historyTable}`;
  await db.tx(async (c) => {
    await c.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`migrate:${schema}`]);
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await c.query(
      `CREATE TABLE IF NOT EXISTS ${history} (
         version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now())`,
    );
  });
  const applied: number[] = [];
  for (const m of migrations) {
    const didApply = await db.tx(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`migrate:${schema}`]);
      const { rows } = await c.query<{ checksum: string }>(`SELECT checksum FROM ${history} WHERE version = $1`, [
        m.version,
      ]);
      if (rows[0]) {
        if (rows[0].checksum !== checksum(m.sql)) {
          throw new Error(`migration ${schema} ${m.version}_${m.name} was changed after it was applied`);
        }
        return false;
      }
      await c.query(m.sql);
      await c.query(`INSERT INTO ${history} (version, name, checksum) VALUES ($1, $2, $3)`, [
        m.version,
        m.name,
        checksum(m.sql),
      ]);
      return true;
    });
    if (didApply) applied.push(m.version);
  }
  return applied;
}

export async function migrateFromDir(db: Db, schema: string, dir: string): Promise<number[]> {
  return migrate(db, schema, await readMigrations(dir));
}
