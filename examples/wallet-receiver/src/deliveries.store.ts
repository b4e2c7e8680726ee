import type { DeliveryStore } from "@cardhold/receiver";
import type { Database, Sql } from "./database.js";

/**
 * The SDK's DeliveryStore on the wallet database: each delivery is one transaction, and the wallet handlers get
 * its `Sql` as `ctx.tx`, so duplicate tracking and balance changes commit together. The primary keys make a
 * second delivery of the same event (or a second capture of one authorization) wait for the first and then see it.
 * A capture's claim also keeps when the latest closed event handled for it was made, and an amount change locks it.
 */
export function databaseDeliveryStore(db: Database): DeliveryStore<Sql> {
  return {
    transaction: (work) =>
      db.transaction((sql) =>
        work({
          tx: sql,
          async claimEvent(eventId) {
            const claimed = await sql.query(
              "INSERT INTO wallet_receiver.deliveries (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING RETURNING event_id",
              [eventId],
            );
            if (claimed.length > 0) return { first: true };
            const [earlier] = await sql.query<{ answer: unknown }>(
              "SELECT answer FROM wallet_receiver.deliveries WHERE event_id = $1",
              [eventId],
            );
            return { first: false, answer: earlier?.answer };
          },
          async remember(eventId, answer) {
            await sql.query("UPDATE wallet_receiver.deliveries SET answer = $2 WHERE event_id = $1", [
              eventId,
              JSON.stringify(answer),
            ]);
          },
          async claimAuthorization(authorizationId) {
            const claimed = await sql.query(
              "INSERT INTO wallet_receiver.capture_claims (authorization_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING authorization_id",
              [authorizationId],
            );
            return claimed.length > 0;
          },
          async recordClosed(authorizationId, madeAt) {
            await sql.query(
              "UPDATE wallet_receiver.capture_claims SET closed_at = GREATEST(closed_at, $2::timestamptz) WHERE authorization_id = $1",
              [authorizationId, madeAt],
            );
          },
          async closedSince(authorizationId, madeAt) {
            const [claim] = await sql.query<{ later: boolean | null }>(
              "SELECT closed_at > $2::timestamptz AS later FROM wallet_receiver.capture_claims WHERE authorization_id = $1 FOR UPDATE",
              [authorizationId, madeAt],
            );
            return claim?.later === true;
          },
        }),
      ),
  };
}
