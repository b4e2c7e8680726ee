import type { Db, Queryable } from "@cardhold/db";
import type { IncomingMessage } from "./bus";

/**
 * Idempotent consumption: records the message id in the inbox and runs `handle` in the same transaction. A message
 * seen before is skipped, so at-least-once delivery has exactly-once effects. Returns false for a duplicate.
 */
export async function handleOnce(
  db: Db,
  schema: string,
  consumer: string,
  message: IncomingMessage,
  handle: (client: Queryable) => Promise<void>,
): Promise<boolean> {
  return db.tx(async (client) => {
    const { rowCount } = await client.query(
      `INSERT INTO ${schema}.inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [consumer, message.id],
    );
    if (rowCount === 0) return false;
    await handle(client);
    return true;
  });
}

/**
 * Batch form of handleOnce: records the ids of a batch in the inbox and runs `handle` with the messages not seen
 * before, all in one transaction (one commit for the batch).
 */
export async function handleBatchOnce(
  db: Db,
  schema: string,
  consumer: string,
  messages: IncomingMessage[],
  handle: (client: Queryable, fresh: IncomingMessage[]) => Promise<void>,
): Promise<IncomingMessage[]> {
  return db.tx(async (client) => {
    const { rows } = await client.query<{ message_id: string }>(
      `INSERT INTO ${schema}.inbox (consumer, message_id) SELECT $1, unnest($2::text[])
       ON CONFLICT DO NOTHING RETURNING message_id`,
      [consumer, messages.map((m) => m.id)],
    );
    const inserted = new Set(rows.map((r) => r.message_id));
    const fresh = messages.filter((m) => inserted.delete(m.id));
    if (fresh.length > 0) await handle(client, fresh);
    return fresh;
  });
}
