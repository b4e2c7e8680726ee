import type { Queryable } from "@cardhold/db";
import { defineResource, type Scope } from "@cardhold/query";

/** A merchant of the directory (migration 006): shared by every business in both modes. */
export interface MerchantRow {
  id: string;
  name: string;
  mcc: string;
  category: string;
  city: string;
  country: string;
  created_at: Date;
  updated_at: Date;
}

/**
 * The scope the merchant list runs in. The query language confines every statement to a business and a mode; the
 * directory is no business's, so its view (engine.merchant_directory) holds this one constant in both scope columns.
 */
export const MERCHANT_DIRECTORY_SCOPE: Scope = { businessId: "directory", mode: "directory" };

/** GET /tools/merchants as the query language sees it. */
export const merchantResource = defineResource({
  name: "merchant",
  table: "engine.merchant_directory",
  idColumn: "id",
  createdColumn: "created_at",
  scope: { business: "business_id", mode: "mode" },
  fields: {
    id: { type: "id", column: "id", sortable: true },
    name: { type: "string", column: "name", sortable: true },
    mcc: { type: "string", column: "mcc", sortable: true },
    category: { type: "string", column: "category", sortable: true },
    city: { type: "string", column: "city", sortable: true },
    country: { type: "string", column: "country", sortable: true },
    createdAt: { type: "date", column: "created_at", sortable: true },
    updatedAt: { type: "date", column: "updated_at", sortable: true },
  },
});

export async function findMerchant(db: Queryable, id: string): Promise<MerchantRow | undefined> {
  const { rows } = await db.query<MerchantRow & Record<string, unknown>>(
    "SELECT id, name, mcc, category, city, country, created_at, updated_at FROM engine.merchants WHERE id = $1",
    [id],
  );
  return rows[0];
}
