/**
 * The Db's own cost per statement: `--workers` loops sending `SELECT $1::int` through one Db with a pool of
 * `--pool` connections (fewer than the workers, so requests wait for a connection and are handed one as another is
 * released), `--queries` per round, `--rounds` rounds after a warm-up one. Prints this process's CPU per query (user
 * + system, from process.cpuUsage) for each round. Run it in two trees, alternated, to compare a change to
 * packages/db (bench/README.md, twenty-eighth session).
 *   npx tsx bench/db-query.bench.ts [--workers 8] [--pool 4] [--queries 10000] [--rounds 3]
 * DATABASE_URL: the server to use (default: the machine's, postgres://postgres@127.0.0.1:5432/test).
 */
import { parseArgs } from "node:util";
import { createDb } from "../packages/db/src/db";

const { values } = parseArgs({
  options: {
    workers: { type: "string", default: "8" },
    pool: { type: "string", default: "4" },
    queries: { type: "string", default: "10000" },
    rounds: { type: "string", default: "3" },
  },
});
const [workers, pool, queries, rounds] = [values.workers, values.pool, values.queries, values.rounds].map(Number);
if (![workers, pool, queries, rounds].every((n) => Number.isInteger(n) && n! > 0))
  throw new Error("--workers, --pool, --queries, --rounds: positive integers");

const db = createDb({ url: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test", poolSize: pool });

async function round(count: number) {
  const cpu = process.cpuUsage();
  const startedAt = Date.now();
  let sent = 0;
  const worker = async () => {
    while (sent < count) await db.query("SELECT $1::int AS n", [sent++]);
  };
  await Promise.all(Array.from({ length: workers! }, worker));
  const used = process.cpuUsage(cpu);
  return { cpuUsPerQuery: Number(((used.user + used.system) / count).toFixed(1)), wallMs: Date.now() - startedAt };
}

await round(Math.ceil(queries! / 3));
const results = [];
for (let i = 0; i < rounds!; i++) results.push(await round(queries!));
console.log(JSON.stringify({ workers, pool, queries, rounds: results }));
await db.close();
