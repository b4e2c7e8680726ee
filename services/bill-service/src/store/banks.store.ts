import type { Queryable } from "@cardhold/db";
import { defineResource, type Scope } from "@cardhold/query";
import { BANKS, type Bank } from "../domain/banks";
import { codeCatalogQueryable } from "./code-catalog";

const BANKS_TABLE = "banks";

/**
 * GET /tools/banks as the query language sees it. Banks have no id and no creation time: the CBN code is the id
 * (`after=058` pages on from GTBank), and `list_order` stands where lists keep their creation time, so that the
 * default order ("newest first") is the list's own, alphabetical.
 */
export const bankResource = defineResource({
  name: "bank",
  table: BANKS_TABLE,
  idColumn: "code",
  createdColumn: "list_order",
  scope: { business: "business_id", mode: "mode" },
  fields: {
    name: { type: "string", column: "name", sortable: true },
    code: { type: "string", column: "code", sortable: true },
    nipCode: { type: "string", column: "nip_code", sortable: true },
    type: { type: "string", column: "type", sortable: true },
  },
});

export interface BankRow {
  code: string;
  record: Bank;
}

const COLUMNS = "code text, nip_code text, name text, type text, list_order integer, record jsonb";

const BANK_ROWS = JSON.stringify(
  BANKS.map((b, i) => ({
    code: b.code,
    nip_code: b.nipCode,
    name: b.name,
    type: b.type,
    list_order: BANKS.length - i,
    record: b,
  })),
);

/** A Queryable on which `banks` is the bank list (see codeCatalogQueryable). */
export const banksQueryable = (db: Queryable, scope: Scope): Queryable =>
  codeCatalogQueryable(db, scope, { table: BANKS_TABLE, columns: COLUMNS, rowsJson: BANK_ROWS });
