/**
 * Statements per operation, from pg_stat_statements on the embedded server (the all-in-one started with
 * POSTGRES_SETTINGS='{"shared_preload_libraries":"pg_stat_statements"}'): how many each operation costs, and which.
 */
import pg from "pg";
import type { Queryable } from "@cardhold/db";

export interface StatementStats {
  reset(): Promise<void>;
  /** Since the last reset: statements per operation, and the heaviest statements by total execution time. */
  report(operations: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** How many statements the report lists (STATEMENTS_TOP, default 8). */
const HEAVIEST = Number(process.env.STATEMENTS_TOP ?? 8);

/** On its own connection to `server` (a URL), or on a connection the caller has (an in-process all-in-one's). */
export async function statementStats(server: string | Queryable): Promise<StatementStats> {
  const own = typeof server === "string" ? new pg.Client({ connectionString: server }) : undefined;
  await own?.connect();
  const db: Queryable = own ?? (server as Queryable);
  await db.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  const OURS = "query NOT LIKE '%pg_stat_statements%'";
  return {
    async reset() {
      await db.query("SELECT pg_stat_statements_reset()");
    },
    async report(operations) {
      const per = (n: number) => Number((n / operations).toFixed(2));
      const {
        rows: [all],
      } = await db.query<{ calls: number; exec_ms: number; wal: number }>(
        `SELECT sum(calls)::float8 AS calls, sum(total_exec_time)::float8 AS exec_ms, sum(wal_records)::float8 AS wal
           FROM pg_stat_statements WHERE ${OURS}`,
      );
      const { rows: top } = await db.query<{ calls: number; exec_ms: number; wal: number; text: string }>(
        `SELECT calls::float8, total_exec_time::float8 AS exec_ms, wal_records::float8 AS wal,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 80) AS text
           FROM pg_stat_statements WHERE ${OURS} ORDER BY total_exec_time DESC LIMIT ${HEAVIEST}`,
      );
      return {
        statementsPerOperation: per(all!.calls),
        execMsPerOperation: per(all!.exec_ms),
        walRecordsPerOperation: per(all!.wal),
        heaviest: top.map((r) => ({
          perOperation: per(r.calls),
          msPerCall: Number((r.exec_ms / r.calls).toFixed(3)),
          walRecordsPerOperation: per(r.wal),
          text: r.text,
        })),
      };
    },
    close: async () => void (await own?.end()),
  };
}
