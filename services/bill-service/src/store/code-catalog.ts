import { ONE_OFF, type Queryable, type Row } from "@cardhold/db";
import type { Scope } from "@cardhold/query";

/** A list kept in code (the bill catalog, the banks), as rows a list statement can read under a table name. */
export interface CodeCatalog {
  /** The name the list's statements read it by: a CTE, not a table. */
  table: string;
  /** The CTE's columns with their types, as `jsonb_to_recordset` takes them. */
  columns: string;
  /** Every row, as one JSON array of objects keyed by column. */
  rowsJson: string;
}

/**
 * A Queryable on which `catalog.table` is the catalog, so that a list kept in code filters, sorts, pages and counts
 * through listResource exactly as every other list: each statement the query language compiled gets the catalog as
 * a CTE of that name (from one bound JSON parameter), its rows in the caller's scope, as the catalog is every
 * business's in either mode.
 */
export function codeCatalogQueryable(db: Queryable, scope: Scope, catalog: CodeCatalog): Queryable {
  return {
    query<R extends Row = Row>(text: string, values: unknown[] = []) {
      const statement = text.startsWith(ONE_OFF) ? text.slice(ONE_OFF.length) : text;
      const [business, mode, rows] = [values.length + 1, values.length + 2, values.length + 3];
      const cte = `${catalog.table} AS (SELECT c.*, $${business}::text AS business_id, $${mode}::text AS mode
        FROM jsonb_to_recordset($${rows}::jsonb) AS c(${catalog.columns}))`;
      // The compiled statement may open with its own WITH (a cursor's row): the catalog joins that list.
      const withCatalog = statement.startsWith("WITH ")
        ? `WITH ${cte}, ${statement.slice("WITH ".length)}`
        : `WITH ${cte} ${statement}`;
      return db.query<R>(ONE_OFF + withCatalog, [...values, scope.businessId, scope.mode, catalog.rowsJson]);
    },
  };
}
