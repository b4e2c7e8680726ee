import type { Db } from "@cardhold/db";

/** An answer a write recorded with its effect: under its claim, in the transaction `txid`. */
export interface RecordedAnswer {
  key: string;
  status: number;
  txid: string;
}

/**
 * Watches `<schema>.idempotency_keys` for answers the work records itself (recordIdempotentAnswer: set while the
 * request still holds its claim, in the transaction of its effect), as opposed to the middleware's after-the-fact
 * record (which sets the answer and lets go of the claim in one statement). Returns what was recorded for a key.
 */
export async function watchRecordedAnswers(db: Db, schema: string) {
  await db.query(`
    CREATE TABLE IF NOT EXISTS ${schema}.test_recorded_answers (key text, status int, txid text);
    CREATE OR REPLACE FUNCTION ${schema}.test_record_answer() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.answer_status IS NULL AND NEW.answer_status IS NOT NULL AND NEW.claim IS NOT NULL THEN
        INSERT INTO ${schema}.test_recorded_answers VALUES (NEW.key, NEW.answer_status, txid_current()::text);
      END IF;
      RETURN NEW;
    END $$;
    DROP TRIGGER IF EXISTS test_record_answer ON ${schema}.idempotency_keys;
    CREATE TRIGGER test_record_answer BEFORE UPDATE ON ${schema}.idempotency_keys
      FOR EACH ROW EXECUTE FUNCTION ${schema}.test_record_answer();`);
  return async (key: string): Promise<RecordedAnswer[]> => {
    const { rows } = await db.query<RecordedAnswer & Record<string, unknown>>(
      `SELECT key, status, txid FROM ${schema}.test_recorded_answers WHERE key = $1`,
      [key],
    );
    return rows;
  };
}

/** The transaction that last wrote a row (its xmin), comparable with RecordedAnswer.txid on a fresh database. */
export async function lastWriterOf(db: Db, table: string, id: string): Promise<string> {
  const { rows } = await db.query<{ txid: string }>(`SELECT xmin::text AS txid FROM ${table} WHERE id = $1`, [id]);
  return rows[0]!.txid;
}
