import pg from "pg";

// int8 (counts, minor units) as JS numbers: exact up to 2^53, and we refuse anything larger rather than round it.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} exceeds the safe integer range`);
  return n;
});
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value: string) => value);

export type Row = Record<string, unknown>;

export interface Queryable {
  query<R extends Row = Row>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface TxOptions {
  /**
   * false: the commit returns before its WAL record is flushed to disk (synchronous_commit off for this transaction
   * only). A crash may then lose the last fraction of a second of such transactions — never a half of one. Use it
   * only where losing the write is harmless because it is done again (bookkeeping of at-least-once work); money and
   * state changes keep durable commits.
   */
  durable?: boolean;
}

export interface Db extends Queryable {
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (client: Queryable) => Promise<T>, options?: TxOptions): Promise<T>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DbOptions {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

export function createDb(opts: DbOptions): Db {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize ?? 10,
    application_name: opts.applicationName,
    idleTimeoutMillis: 30_000,
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  return {
    query: <R extends Row = Row>(text: string, values?: unknown[]) => pool.query<R>(text, values),
    async tx<T>(fn: (client: Queryable) => Promise<T>, options: TxOptions = {}): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        if (options.durable === false) await client.query("SET LOCAL synchronous_commit = off");
        const result = await fn(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      try {
        await pool.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}

/** Postgres error code of a failed query, e.g. 23505 for a unique violation. */
export function pgErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" ? code : undefined;
}

export const PG_UNIQUE_VIOLATION = "23505";
