import { handleOnce, type Bus } from "@cardhold/bus";
import { mayStillArrive } from "./ids";
import { customerChangedMessage, TOPICS } from "@cardhold/contracts";
import { migrate, type Db, type Queryable } from "@cardhold/db";
import { scopedResource, type ExpandLoader } from "@cardhold/query";
import type { Logger } from "pino";

/**
 * A service's local copy of customers (id, status, name, and the full record for expand) kept from customers.v1, for
 * services that must check a customer without calling the customer-service. Newer versions win; redeliveries are
 * ignored.
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
          {
            version: 2,
            name: "customer_projection_record",
            sql: `ALTER TABLE ${schema}.customers ADD COLUMN record jsonb`,
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
              `INSERT INTO ${schema}.customers (id, business_id, mode, name, status, updated_at, record)
               VALUES ($1, $2, $3, $4, $5, $6, $7)
               ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at,
                 record = EXCLUDED.record
               WHERE ${schema}.customers.updated_at <= EXCLUDED.updated_at`,
              [data.id, businessId, mode, data.name, data.status, data.updatedAt, data],
            );
          });
        },
      }),
  };
}

export interface ProjectedCustomer {
  id: string;
  name: string;
  status: string;
  record: Record<string, unknown> | null;
}

/** How long after a customer is made its customers.v1 message may still be on its way to a projection. */
const PROJECTION_LAG_MS = 10_000;

/**
 * Reads customers from a projection. The projection follows customers.v1 a moment behind the customer-service, so a
 * customer created just now may not be there yet: with `waitMs`, a miss is looked up again until it appears or the
 * time is up.
 */
export async function findProjectedCustomers(
  db: Queryable,
  schema: string,
  scope: { businessId: string; mode: string },
  ids: string[],
  waitMs = 0,
): Promise<ProjectedCustomer[]> {
  const deadline = Date.now() + waitMs;
  const read = async () =>
    (
      await db.query<ProjectedCustomer & Record<string, unknown>>(
        `SELECT id, name, status, record FROM ${schema}.customers WHERE id = ANY($1::text[]) AND business_id = $2 AND mode = $3`,
        [ids, scope.businessId, scope.mode],
      )
    ).rows;
  for (;;) {
    const rows = await read();
    const found = new Set(rows.map((r) => r.id));
    const missing = [...new Set(ids)].filter((id) => !found.has(id));
    if (missing.length === 0 || Date.now() >= deadline) return rows;
    // Wait only for ids made moments ago (their customers.v1 message may be in flight) and not another business's. An
    // id the projection holds now is another business's, or arrived since the read above: one more read tells which.
    if (!(await mayStillBeProjected(db, schema, missing))) return read();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function mayStillBeProjected(db: Queryable, schema: string, missing: string[]): Promise<boolean> {
  const recent = missing.filter((id) => mayStillArrive(id, PROJECTION_LAG_MS));
  if (recent.length === 0) return false;
  const { rows } = await db.query(`SELECT id FROM ${schema}.customers WHERE id = ANY($1::text[])`, [recent]);
  return rows.length < recent.length; // an id projected already is another business's (or mode's): no wait
}

/**
 * `expand=customer` from a projection: the full customer record as customers.v1 last carried it (or, for a row
 * written before records were kept, its id, name and status).
 */
export function projectedCustomerLoader(db: Queryable, schema: string): ExpandLoader {
  return {
    spec: scopedResource("customer", `${schema}.customers`, { id: { type: "id", column: "id" } }),
    async load(ids, scope) {
      const customers = await findProjectedCustomers(db, schema, scope, ids);
      return new Map(
        customers.map((c) => [c.id, c.record ?? { id: c.id, object: "customer", name: c.name, status: c.status }]),
      );
    },
  };
}
