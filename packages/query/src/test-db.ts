/** A fresh database on the test run's embedded PostgreSQL holding the test rows, for the real-SQL tests of this package. */
import type { Db } from "@cardhold/db";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { compileListQuery } from "./compile-sql";
import { compileCursorCheck, finishPage } from "./cursor";
import { invalidQuery } from "./errors";
import { parseListQuery } from "./parse-params";
import { SCOPE, THINGS, thingResource, type Thing } from "./test-fixtures";

export async function thingsDb(): Promise<TestDatabase> {
  const database = await createTestDatabase({ poolSize: 2 });
  const { db } = database;
  await db.query(`
    CREATE SCHEMA q;
    CREATE TABLE q.things (
      id text PRIMARY KEY, business_id text NOT NULL, mode text NOT NULL, name text NOT NULL, amount int8 NOT NULL,
      rank int, active boolean NOT NULL, created_at timestamptz NOT NULL, tags jsonb NOT NULL, metadata jsonb NOT NULL,
      customer text, secret text);
    CREATE INDEX things_order ON q.things (business_id, mode, created_at DESC, id DESC);
    CREATE INDEX things_metadata ON q.things USING gin (metadata jsonb_path_ops);`);
  for (const t of THINGS) await insertThing(db, t);
  return database;
}

export async function insertThing(db: Db, t: Thing): Promise<void> {
  await db.query(
    `INSERT INTO q.things (id, business_id, mode, name, amount, rank, active, created_at, tags, metadata, customer, secret)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'hidden')`,
    [
      t.id,
      t.business_id,
      t.mode,
      t.name,
      t.amount,
      t.rank,
      t.active,
      t.created_at.toISOString(),
      JSON.stringify(t.tags),
      JSON.stringify(t.metadata),
      t.customer,
    ],
  );
}

export async function rowCount(db: Db): Promise<number> {
  return (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM q.things")).rows[0]!.n;
}

/** One page as a service would read it: the cursor check first (an unknown cursor is a 400), then the page. */
export async function readPage(db: Db, raw: Record<string, unknown>) {
  const q = parseListQuery(raw, thingResource);
  const check = compileCursorCheck(q, thingResource, SCOPE);
  if (check && (await db.query(check.text, check.values)).rows.length === 0)
    throw invalidQuery(`no thing ${q.after ?? q.before} to page from`);
  const { text, values } = compileListQuery(q, thingResource, SCOPE);
  return finishPage((await db.query<{ id: string }>(text, values)).rows, q);
}
