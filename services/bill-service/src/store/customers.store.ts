import type { Queryable } from "@cardhold/db";
import { defineResource, type ExpandLoader, type Scope } from "@cardhold/query";

/** A customer as the projection (bills.customers, kept from customers.v1) knows it. */
export interface KnownCustomer {
  id: string;
  name: string;
  status: string;
}

export async function findCustomer(db: Queryable, scope: Scope, id: string): Promise<KnownCustomer | undefined> {
  const { rows } = await db.query<KnownCustomer & Record<string, unknown>>(
    "SELECT id, name, status FROM bills.customers WHERE id = $1 AND business_id = $2 AND mode = $3",
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}

const customerResource = defineResource({
  name: "customer",
  table: "bills.customers",
  idColumn: "id",
  createdColumn: "updated_at",
  scope: { business: "business_id", mode: "mode" },
  fields: {
    id: { type: "id", column: "id" },
    name: { type: "string", column: "name" },
    status: { type: "string", column: "status" },
  },
});

/** expand=customer on payments: the projection's fields of each customer (id, object, name, status). */
export function customerLoader(db: Queryable): ExpandLoader {
  return {
    spec: customerResource,
    async load(ids, scope) {
      const { rows } = await db.query<KnownCustomer & Record<string, unknown>>(
        "SELECT id, name, status FROM bills.customers WHERE id = ANY($1::text[]) AND business_id = $2 AND mode = $3",
        [ids, scope.businessId, scope.mode],
      );
      return new Map(rows.map((r) => [r.id, { id: r.id, object: "customer", name: r.name, status: r.status }]));
    },
  };
}
