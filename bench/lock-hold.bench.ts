/**
 * How long a transaction holds a hot row's lock: `--workers` loops each running, in one transaction, a
 * `SELECT … FOR UPDATE` of the same row and an UPDATE of it (an authorization's funding account, as every request,
 * answer and default on a card locks it). Two ways to end the transaction, alternated phase by phase in one process:
 *   - awaited: the UPDATE is sent and answered, then COMMIT (two round trips under the lock);
 *   - with-commit: the UPDATE is handed over with TxClient.sendWithNext and goes out with the COMMIT (one).
 * `--lag-ms` makes the event loop busy as a loaded process's is: a timer every 10 ms blocks it that long, so each
 * round trip under the lock also waits for the loop. Prints, per phase, the transactions a second on the row (1 / the
 * time it is held), the p50 / p99 of a transaction, and the CPU per transaction of this process and of its PostgreSQL
 * backends (from /proc).
 *   npx tsx bench/lock-hold.bench.ts [--workers 8] [--seconds 5] [--rounds 3] [--lag-ms 0,4]
 * DATABASE_URL: the server to use (default: the machine's, postgres://postgres@127.0.0.1:5432/test).
 */
import { parseArgs } from "node:util";
import { createDb, type TxClient } from "../packages/db/src/db";
import { cpuPerOperation, readCpu, type ProcessGroups } from "./support/process-cpu";

const { values } = parseArgs({
  options: {
    workers: { type: "string", default: "8" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    "lag-ms": { type: "string", default: "0,4" },
  },
});
const [workers, seconds, rounds] = [values.workers, values.seconds, values.rounds].map(Number);
const lags = values["lag-ms"].split(",").map(Number);
if (![workers, seconds, rounds].every((n) => Number.isInteger(n) && n! > 0) || lags.some((l) => !(l >= 0 && l < 10)))
  throw new Error("--workers, --seconds, --rounds: positive integers; --lag-ms: numbers from 0 to 9");

const applicationName = `bench-lock-hold-${process.pid}`;
const db = createDb({
  url: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  poolSize: workers,
  applicationName,
});
await db.query("CREATE TABLE IF NOT EXISTS bench_lock_hold (id int PRIMARY KEY, n bigint NOT NULL)");
await db.query("INSERT INTO bench_lock_hold VALUES (1, 0) ON CONFLICT (id) DO NOTHING");

type Ending = "awaited" | "with-commit";
const write = (n: number) => ({ text: "UPDATE bench_lock_hold SET n = $1 WHERE id = 1", values: [n + 1] });

async function oneTransaction(ending: Ending) {
  await db.tx(async (tx: TxClient) => {
    const { rows } = await tx.query<{ n: number }>("SELECT n FROM bench_lock_hold WHERE id = $1 FOR UPDATE", [1]);
    const { text, values: params } = write(Number(rows[0]!.n));
    if (ending === "awaited") await tx.query(text, params);
    else tx.sendWithNext({ text, values: params });
  });
}

function busyLoop(lagMs: number): () => void {
  if (lagMs === 0) return () => undefined;
  const timer = setInterval(() => {
    const until = performance.now() + lagMs;
    while (performance.now() < until);
  }, 10);
  return () => clearInterval(timer);
}

let backends: number[] = [];
const cpuGroups: ProcessGroups = { bench: () => [process.pid], postgres: () => backends };

async function phase(ending: Ending, lagMs: number) {
  const cpuBefore = readCpu(cpuGroups);
  const stop = busyLoop(lagMs);
  const until = Date.now() + seconds! * 1_000;
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: workers! }, async () => {
      while (Date.now() < until) {
        const startedAt = performance.now();
        await oneTransaction(ending);
        times.push(performance.now() - startedAt);
      }
    }),
  );
  stop();
  const cpuMsPerTransaction = cpuPerOperation(cpuBefore, readCpu(cpuGroups), times.length);
  times.sort((a, b) => a - b);
  const at = (q: number) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2));
  const perSecond = Math.round(times.length / seconds!);
  return { ending, lagMs, perSecond, p50ms: at(0.5), p99ms: at(0.99), cpuMsPerTransaction };
}

for (const ending of ["awaited", "with-commit"] as const) await phase(ending, 0); // warm-up
const { rows } = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [
  applicationName,
]);
backends = rows.map((r) => r.pid);
for (let round = 1; round <= rounds!; round++)
  for (const lagMs of lags)
    for (const ending of ["awaited", "with-commit"] as const)
      console.log(JSON.stringify({ round, ...(await phase(ending, lagMs)) }));
await db.query("DROP TABLE bench_lock_hold");
await db.close();
