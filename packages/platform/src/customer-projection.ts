import { handleOnce, type Bus } from "@cardhold/bus";
import { customerChangedMessage, TOPICS } from "@cardhold/contracts";
import { migrate, type Db } from "@cardhold/db";
import type { Logger } from "pino";

/**
 * A service's local copy of customers (id, status, name) kept from customers.v1, for services that must check a
 * customer without calling the customer-service. Newer versions win; redeliveries are ignored.
 */
export function customerProjection(db: Db, schema: string, consumer: string) {
  return {
    migrate: () =>
      migrate(
        db,
        schema,
        [
          {
            version: 1,
            name: "customer_projection",
            sql: `CREATE TABLE ${schema}.customers (
                    id text PRIMARY KEY, business_id text NOT NULL, mode text NOT NULL, name text NOT NULL,
                    status text NOT NULL, updated_at timestamptz NOT NULL)`,
          },
        ],
        "projection_migrations",
      ),
    subscribe: (bus: Bus, logger: Logger) =>
      bus.subscribe({
        group: consumer,
        topics: [TOPICS.customers],
        handler: async (message) => {
          const parsed = customerChangedMessage.safeParse(message.value);
          if (!parsed.success) {
            logger.error({ messageId: message.id }, "skipping malformed customers.v1 message");
            return;
          }
          const { businessId, mode, data } = parsed.data;
          await handleOnce(db, schema, consumer, message, async (tx) => {
            await tx.query(
              `INSERT INTO ${schema}.customers (id, business_id, mode, name, status, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
               WHERE ${schema}.customers.updated_at <= EXCLUDED.updated_at`,
              [data.id, businessId, mode, data.name, data.status, data.updatedAt],
            );
          });
        },
      }),
  };
}
