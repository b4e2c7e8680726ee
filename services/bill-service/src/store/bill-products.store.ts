import type { Queryable } from "@cardhold/db";
import { idTime } from "@cardhold/platform";
import { defineResource, type Scope } from "@cardhold/query";
import { PRODUCTS } from "../domain/catalog";
import { codeCatalogQueryable } from "./code-catalog";

/** The name the product list's statements read the catalog by: a CTE, not a table (the catalog is code). */
const CATALOG_TABLE = "bill_products";

/** GET /tools/bills/products as the query language sees it. */
export const billProductResource = defineResource({
  name: "bill product",
  table: CATALOG_TABLE,
  idColumn: "id",
  createdColumn: "created_at",
  scope: { business: "business_id", mode: "mode" },
  fields: {
    id: { type: "id", column: "id", sortable: true },
    name: { type: "string", column: "name", sortable: true },
    category: { type: "string", column: "category", sortable: true },
    biller: { type: "string", column: "biller", sortable: true },
    billerName: { type: "string", column: "biller_name", sortable: true },
    currency: { type: "string", column: "currency", sortable: true },
    price: { type: "number", column: "price", sortable: true, nullable: true },
    fee: { type: "object", column: "fee" },
    inputs: { type: "array", column: "inputs" },
    accountInput: { type: "string", column: "account_input" },
    output: { type: "array", column: "output" },
  },
});

export interface BillProductRow {
  id: string;
  /** The product as the catalog holds it: the record the list answers with. */
  record: Record<string, unknown>;
}

const COLUMNS = `id text, name text, category text, biller text, biller_name text, currency text, price bigint,
  fee jsonb, inputs jsonb, output jsonb, account_input text, record jsonb, created_at timestamptz`;

/** The catalog as rows of that CTE; a product was made when its id says (ids are time-ordered). */
const CATALOG_ROWS = JSON.stringify(
  PRODUCTS.map((p) => ({
    id: p.id,
    name: p.name,
    category: p.category,
    biller: p.biller,
    biller_name: p.billerName,
    currency: p.currency,
    price: p.price,
    fee: p.fee,
    inputs: p.inputs,
    output: p.output,
    account_input: p.accountInput,
    record: p,
    created_at: new Date(idTime(p.id) ?? 0).toISOString(),
  })),
);

/** A Queryable on which `bill_products` is the catalog (see codeCatalogQueryable). */
export const catalogQueryable = (db: Queryable, scope: Scope): Queryable =>
  codeCatalogQueryable(db, scope, { table: CATALOG_TABLE, columns: COLUMNS, rowsJson: CATALOG_ROWS });
