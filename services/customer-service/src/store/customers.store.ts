import type { Queryable } from "@cardhold/db";
import { scopedResource } from "@cardhold/query";
import type { CustomerRow } from "../domain/customer";

export const SCHEMA = "customers";

/** The customers list as the query language sees it. */
export const customerResource = scopedResource("customer", "customers.customers", {
  id: { type: "id", column: "id", sortable: true },
  name: { type: "string", column: "name", sortable: true },
  reference: { type: "string", column: "reference", sortable: true },
  type: { type: "string", column: "type", sortable: true },
  status: { type: "string", column: "status" },
  claims: { type: "object", column: "claims" },
  verifications: { type: "array", column: "verifications" },
  metadata: { type: "object", column: "metadata" },
  createdAt: { type: "date", column: "created_at", sortable: true },
  updatedAt: { type: "date", column: "updated_at", sortable: true },
});

export interface Scope {
  businessId: string;
  mode: string;
}

export type NewCustomer = Omit<CustomerRow, "status">;

const COLUMNS = "id, name, reference, type, status, claims, verifications, metadata, created_at, updated_at";

export async function insertCustomer(db: Queryable, scope: Scope, c: NewCustomer): Promise<CustomerRow> {
  const { rows } = await db.query<CustomerRow & Record<string, unknown>>(
    `INSERT INTO customers.customers
       (id, business_id, mode, name, reference, type, claims, verifications, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING ${COLUMNS}`,
    [
      c.id,
      scope.businessId,
      scope.mode,
      c.name,
      c.reference,
      c.type,
      c.claims,
      JSON.stringify(c.verifications),
      c.metadata,
      c.created_at,
      c.updated_at,
    ],
  );
  return rows[0]!;
}

export async function updateCustomer(
  db: Queryable,
  scope: Scope,
  c: Omit<NewCustomer, "created_at">,
): Promise<CustomerRow | undefined> {
  const { rows } = await db.query<CustomerRow & Record<string, unknown>>(
    `UPDATE customers.customers
        SET name = $4, reference = $5, type = $6, claims = $7, verifications = $8, metadata = $9, updated_at = $10
      WHERE id = $1 AND business_id = $2 AND mode = $3
      RETURNING ${COLUMNS}`,
    [
      c.id,
      scope.businessId,
      scope.mode,
      c.name,
      c.reference,
      c.type,
      c.claims,
      JSON.stringify(c.verifications),
      c.metadata,
      c.updated_at,
    ],
  );
  return rows[0];
}

export async function findCustomer(db: Queryable, scope: Scope, id: string): Promise<CustomerRow | undefined> {
  const { rows } = await db.query<CustomerRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM customers.customers WHERE id = $1 AND business_id = $2 AND mode = $3`,
    [id, scope.businessId, scope.mode],
  );
  return rows[0];
}
