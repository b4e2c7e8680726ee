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
      await db.query("SELECT pg_stat_statements_reset(), pg_stat_reset()");
    },
    async report(operations) {
      const per = (n: number) => Number((n / operations).toFixed(2));
      const {
        rows: [all],
      } = await db.query<{ calls: number; exec_ms: number; wal: number; fpi: number; wal_bytes: number }>(
        `SELECT sum(calls)::float8 AS calls, sum(total_exec_time)::float8 AS exec_ms, sum(wal_records)::float8 AS wal,
                sum(wal_fpi)::float8 AS fpi, sum(wal_bytes)::float8 AS wal_bytes
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
        walFullPageImagesPerOperation: per(all!.fpi),
        walBytesPerOperation: Math.round(all!.wal_bytes / operations),
        rowWrites: await rowWrites(db, per),
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

/**
 * Rows written per operation, per table (pg_stat_user_tables since the reset): inserts, updates (and of them HOT,
 * which add no index entry), deletes. Backends report these when a transaction ends, at most once a second.
 */
async function rowWrites(db: Queryable, per: (n: number) => number) {
  const { rows } = await db.query<{ name: string; ins: number; upd: number; hot: number; del: number }>(
    `SELECT schemaname || '.' || relname AS name, n_tup_ins::float8 AS ins, n_tup_upd::float8 AS upd,
            n_tup_hot_upd::float8 AS hot, n_tup_del::float8 AS del
       FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0
      ORDER BY n_tup_ins + n_tup_upd + n_tup_del DESC LIMIT 20`,
  );
  return Object.fromEntries(
    rows.map((r) => [r.name, `ins ${per(r.ins)} upd ${per(r.upd)} (hot ${per(r.hot)}) del ${per(r.del)}`]),
  );
}
