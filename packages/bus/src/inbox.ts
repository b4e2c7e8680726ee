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
