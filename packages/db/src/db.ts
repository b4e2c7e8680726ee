import { createHash } from "node:crypto";
import pg from "pg";
import { createConnectionGate } from "./connection-gate";
import { pipelinedStatements, setPipelined } from "./pipelined-statements";
import { listenForNotifications, type NotificationListener } from "./notification-listener";
import type { Write } from "./write-batch";

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
   * false: the commit returns before its WAL record is flushed to disk (synchronous_commit off). A crash may then lose
   * the last fraction of a second of such transactions — never a half of one. Use it only where losing the write is
   * harmless because it is done again (bookkeeping of at-least-once work); money and state changes keep durable
   * commits.
   */
  durable?: boolean;
  /**
   * true: the transaction gets the next free connection ahead of every ordinary one waiting for it. For a decision
   * owed to a card network now (an answer, a timeout default at its deadline): under load the pool's queue is where
   * such a decision waited longest.
   */
  urgent?: boolean;
}

/** The connection of a transaction under way. */
export interface TxClient extends Queryable {
  /** Hands `note` to the Db's commit listeners once this transaction has committed; dropped if it rolls back. */
  afterCommit(note: unknown): void;
  /**
   * A write whose result nobody reads: it goes to the server with the transaction's next statement, or with its
   * COMMIT, in the same round trip. Its failure fails that statement, or the transaction.
   */
  sendWithNext(write: Write): void;
}

export interface Db extends Queryable {
  /** One statement on its own; `options.urgent` as for a transaction (TxOptions). */
  query<R extends Row = Row>(
    text: string,
    values?: unknown[],
    options?: Pick<TxOptions, "urgent">,
  ): Promise<pg.QueryResult<R>>;
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (client: TxClient) => Promise<T>, options?: TxOptions): Promise<T>;
  /**
   * Calls `listener` with the notes of every transaction of this Db right after it commits (the outbox relay learns
   * this way what it can publish without reading it back). A listener must not throw; returns the unsubscribe.
   */
  onCommit(listener: (notes: unknown[]) => void): () => void;
  /**
   * Calls `listener` with the notes of a transaction whose COMMIT got no answer (the connection broke while it was under
   * way): it may have committed or not. Its notes must not be acted on as committed; what it wrote is read back from
   * the database (the outbox relay reads its table first). A listener must not throw; returns the unsubscribe.
   */
  onCommitUnknown(listener: (notes: unknown[]) => void): () => void;
  /** One statement in its own transaction, committed without waiting for the disk (see TxOptions.durable). */
  bookkeeping<R extends Row = Row>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Statements and transactions waiting for a connection now (the pool's places all taken), urgent and ordinary. */
  waitingForConnection(): { urgent: number; ordinary: number };
  /**
   * Calls `onNotify` on each NOTIFY on `channel` (and whenever the LISTEN is established again after a break), on a
   * connection of its own. Only a Db of a server has it.
   */
  listen?(channel: string, onNotify: () => void): NotificationListener;
  /** Whether this Db's inserts into an outbox NOTIFY its channel (DbOptions.notifyOutbox). */
  readonly notifiesOutbox?: boolean;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DbOptions {
  url: string;
  poolSize?: number;
  applicationName?: string;
  /**
   * Each statement that adds outbox rows NOTIFYs `<schema>_outbox` at its commit (the session setting
   * OUTBOX_NOTIFY_SETTING, read by the outbox's trigger): for services whose instances share one outbox, where the
   * relay holding the lease listens instead of reading the table every few milliseconds.
   */
  notifyOutbox?: boolean;
}

/** The session setting the outbox trigger reads (messaging-tables.ts): `on` makes an insert NOTIFY its relay. */
export const OUTBOX_NOTIFY_SETTING = "cardhold.outbox_notify";

/**
 * Marks a statement whose text is built from a caller's input (a list query's filters and sorts): it is never
 * prepared, so no caller can make a connection keep an unbounded number of prepared statements.
 */
export const ONE_OFF = "/* one-off */ ";

/** A safety net under ONE_OFF: past this many distinct texts, new ones run unprepared. */
const MAX_PREPARED_TEXTS = 1_000;

/**
 * Parameterised statements are prepared once per connection under a name derived from their text, so PostgreSQL
 * parses and plans each of them once instead of on every call (statements without values stay unnamed: they may
 * hold several commands).
 */
const statementNames = new Map<string, string>();
function prepared(text: string, values: unknown[] | undefined): string | pg.QueryConfig {
  if (values === undefined) return text;
  let name = statementNames.get(text);
  if (!name) {
    if (text.startsWith(ONE_OFF) || statementNames.size >= MAX_PREPARED_TEXTS) return { text, values };
    name = `s${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

const run = <R extends Row>(on: pg.Pool | pg.PoolClient, text: string, values?: unknown[]) =>
  on.query<R>(prepared(text, values) as pg.QueryConfig);

function newPool(opts: DbOptions, size: number, sessionSettings?: string) {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: size,
    application_name: opts.applicationName,
    idleTimeoutMillis: 30_000,
    ...(sessionSettings ? { options: sessionSettings } : {}),
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  return pool;
}

export function createDb(opts: DbOptions): Db {
  const size = opts.poolSize ?? 10;
  const notify = opts.notifyOutbox ? `-c ${OUTBOX_NOTIFY_SETTING}=on` : undefined;
  const pool = newPool(opts, size, notify);
  const gate = createConnectionGate<pg.PoolClient>(
    { connect: () => pool.connect(), release: (client, destroy) => client.release(destroy || undefined) },
    size,
  );
  // Bookkeeping commits go through connections whose session does not wait for the disk: no SET per transaction.
  let lazyBookkeepingPool: pg.Pool | undefined;
  const bookkeepingPool = () =>
    (lazyBookkeepingPool ??= newPool(
      opts,
      Math.max(1, Math.ceil(size / 4)),
      ["-c synchronous_commit=off", notify].filter(Boolean).join(" "),
    ));
  const commitListeners = new Set<(notes: unknown[]) => void>();
  const unknownCommitListeners = new Set<(notes: unknown[]) => void>();

  /** A connection for `work`: through the gate from the main pool, straight from the bookkeeping pool. */
  const withConnection = async <T>(
    options: TxOptions,
    work: (client: pg.PoolClient, markBroken: () => void) => Promise<T>,
  ): Promise<T> => {
    const bookkeeping = options.durable === false;
    const client = bookkeeping ? await bookkeepingPool().connect() : await gate.acquire(options.urgent);
    // A connection that broke while checked out emits its error here, not to a query (and an unheard error event
    // would end the process); it is then destroyed instead of going back to the pool.
    let broken = false;
    const markBroken = () => void (broken = true);
    client.on("error", markBroken);
    try {
      return await work(client, markBroken);
    } finally {
      client.off("error", markBroken);
      if (bookkeeping) client.release(broken || undefined);
      else gate.release(client, broken);
    }
  };

  return {
    query: <R extends Row = Row>(text: string, values?: unknown[], options: Pick<TxOptions, "urgent"> = {}) =>
      withConnection(options, (client) => run<R>(client, text, values)),
    bookkeeping: <R extends Row = Row>(text: string, values?: unknown[]) => run<R>(bookkeepingPool(), text, values),
    tx<T>(fn: (client: TxClient) => Promise<T>, options: TxOptions = {}): Promise<T> {
      return withConnection(options, async (client, markBroken) => {
        const notes: unknown[] = [];
        const statements = pipelinedStatements(<R extends Row>(text: string, values?: unknown[]) =>
          run<R>(client, text, values),
        );
        const scoped: TxClient = {
          query: <R extends Row = Row>(text: string, values?: unknown[]) => statements.send<R>(text, values),
          afterCommit: (note) => void notes.push(note),
          sendWithNext: (write) => statements.handOver(write),
        };
        let committing = false;
        setPipelined(client, true);
        try {
          statements.sendUnawaited("BEGIN");
          const result = await fn(scoped);
          committing = true;
          // A statement that failed inside fn (its error caught there) has aborted the transaction: COMMIT rolls back.
          const commit = await statements.send("COMMIT");
          committing = false;
          if (commit.command !== "COMMIT")
            throw new Error("the transaction was rolled back at its commit: a statement in it failed");
          if (notes.length > 0) for (const listener of commitListeners) tellCommitted(listener, notes);
          return result;
        } catch (error) {
          if (committing && notes.length > 0 && commitOutcomeUnknown(error))
            for (const listener of unknownCommitListeners) tellCommitted(listener, notes);
          await statements.settle();
          await client.query("ROLLBACK").catch(markBroken);
          throw error;
        } finally {
          setPipelined(client, false);
        }
      });
    },
    onCommit(listener) {
      commitListeners.add(listener);
      return () => void commitListeners.delete(listener);
    },
    onCommitUnknown(listener) {
      unknownCommitListeners.add(listener);
      return () => void unknownCommitListeners.delete(listener);
    },
    waitingForConnection: () => gate.waiting(),
    async ping() {
      try {
        await withConnection({}, (client) => client.query("SELECT 1"));
        return true;
      } catch {
        return false;
      }
    },
    notifiesOutbox: opts.notifyOutbox === true,
    listen: (channel, onNotify) =>
      listenForNotifications({ url: opts.url, applicationName: opts.applicationName, channel, onNotify }),
    async close() {
      await Promise.all([pool.end(), lazyBookkeepingPool?.end()]);
    },
  };
}

/**
 * Whether a failed COMMIT may have committed all the same. The server's own error answer (a deferred constraint, a
 * serialization failure) means it rolled back. No answer at all (the connection broke: a crashed or killed server, a
 * network fault, whatever its errno), or the server ending the session (class 08 connection exception, class 57
 * operator intervention: a shutdown may end a session whose commit record is already written), leaves it unknown.
 */
export function commitOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return true;
  const code = error.code ?? "";
  return code.startsWith("08") || code.startsWith("57");
}

function tellCommitted(listener: (notes: unknown[]) => void, notes: unknown[]) {
  try {
    listener(notes);
  } catch {
    // The transaction has committed: a listener's failure must not turn it into an error for the caller.
  }
}

/** Postgres error code of a failed query, e.g. 23505 for a unique violation. */
export function pgErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" ? code : undefined;
}

export const PG_UNIQUE_VIOLATION = "23505";
