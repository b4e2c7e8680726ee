import type { Db, Queryable } from "@cardhold/db";

export interface PlainKeyTable {
  /** Schema-qualified table with `id`, `signing_key` (plain, nullable) and `sealed_signing_key`. */
  table: string;
  seal(webhookId: string, signingKey: string): string;
  /** Runs in the same transaction after a row is sealed (e.g. to queue it for republishing). */
  afterSealing?(tx: Queryable, webhookId: string): Promise<void>;
  batch?: number;
}

/**
 * Seals the signing keys a table still holds in plain (rows from before sealing) and clears the plain column, a batch
 * per transaction. Idempotent: only rows with a plain key are touched; SKIP LOCKED lets replicas starting together
 * share the work. Returns how many rows were sealed.
 */
export async function sealPlainSigningKeys(db: Pick<Db, "tx">, opts: PlainKeyTable): Promise<number> {
  const batch = opts.batch ?? 200;
  let sealed = 0;
  for (;;) {
    const done = await db.tx(async (tx) => {
      const { rows } = await tx.query<{ id: string; signing_key: string }>(
        `SELECT id, signing_key FROM ${opts.table} WHERE signing_key IS NOT NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batch],
      );
      for (const row of rows) {
        await tx.query(`UPDATE ${opts.table} SET sealed_signing_key = $2, signing_key = NULL WHERE id = $1`, [
          row.id,
          opts.seal(row.id, row.signing_key),
        ]);
        await opts.afterSealing?.(tx, row.id);
      }
      return rows.length;
    });
    sealed += done;
    if (done < batch) return sealed;
  }
}
