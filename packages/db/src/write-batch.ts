import type pg from "pg";
import type { Queryable, TxClient } from "./db";

export interface Write {
  text: string;
  values: unknown[];
}

/**
 * Writes whose results nobody reads, collected during a transaction and sent as one statement: each a WITH clause of
 * the last. Every statement is a round trip and about a tenth of a millisecond of the server's CPU, and a
 * transaction's writes are most of its statements. All of them see the transaction as it was before the statement
 * (PostgreSQL's rule for data-modifying WITH clauses), so a batch must not write one row twice nor read what an
 * earlier write of the batch wrote; constraints are checked after the whole statement, as with separate statements.
 */
export interface WriteBatch {
  defer(write: Write): void;
  /**
   * Sends what was deferred (nothing when empty: undefined) and starts a new batch; resolves to the result of the last
   * write (its RETURNING rows).
   */
  flush(db: Queryable): Promise<pg.QueryResult | undefined>;
  /**
   * Sends what was deferred with the transaction's next statement or its COMMIT (TxClient.sendWithNext), in one round
   * trip, and starts a new batch: for a transaction's last writes, whose result nobody reads.
   */
  sendWithNext(tx: TxClient): void;
}

const PARAMETER = /\$(\d+)/g;
/** Each write's text with its parameters shifted, by text and shift: the same few texts recur in every transaction. */
const shiftedTexts = new Map<string, Map<number, string>>();
const MAX_SHIFTED_TEXTS = 1_000;

function shifted(text: string, shift: number): string {
  if (shift === 0) return text;
  let byShift = shiftedTexts.get(text);
  if (!byShift) {
    if (shiftedTexts.size >= MAX_SHIFTED_TEXTS) shiftedTexts.clear();
    shiftedTexts.set(text, (byShift = new Map()));
  }
  let result = byShift.get(shift);
  if (result === undefined) {
    result = text.replace(PARAMETER, (_, n: string) => `$${Number(n) + shift}`);
    byShift.set(shift, result);
  }
  return result;
}

/** The writes as one statement, each one's parameters renumbered after those of the writes before it. */
export function combineWrites(writes: Write[]): Write {
  if (writes.length === 1) return writes[0]!;
  let offset = 0;
  const parts = writes.map((w) => {
    if (/^\s*WITH\b/i.test(w.text)) throw new Error("a batched write cannot have WITH clauses of its own");
    const shift = offset;
    offset += w.values.length;
    return shifted(w.text, shift);
  });
  const last = parts.pop()!;
  return {
    text: `WITH ${parts.map((text, i) => `w${i} AS (${text})`).join(",\n")}\n${last}`,
    values: writes.flatMap((w) => w.values),
  };
}

export function createWriteBatch(): WriteBatch {
  let writes: Write[] = [];
  return {
    defer(write) {
      writes.push(write);
    },
    async flush(db) {
      if (writes.length === 0) return undefined;
      const { text, values } = combineWrites(writes);
      writes = [];
      return db.query(text, values);
    },
    sendWithNext(tx) {
      if (writes.length === 0) return;
      tx.sendWithNext(combineWrites(writes));
      writes = [];
    },
  };
}
