import type { Queryable } from "@cardhold/db";
import type { Scope } from "@cardhold/query";
import { toLogRecord } from "./account-records";
import { entriesPage } from "../store/ledger.store";

const COLUMNS = [
  "id",
  "createdAt",
  "type",
  "kind",
  "amount",
  "balanceAfter",
  "currency",
  "reference",
  "description",
  "movement",
] as const;
const PAGE = 1_000;

/** A CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is defused for spreadsheets. */
export function csvField(value: unknown): string {
  let text = value === undefined || value === null ? "" : String(value);
  if (/^[=+\-@]/.test(text) && typeof value === "string") text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every entry of an account as CSV lines, newest first, read a page at a time. */
export async function* accountLogCsv(db: Queryable, scope: Scope, accountId: string): AsyncGenerator<string> {
  yield COLUMNS.join(",") + "\n";
  let before: { created_at: Date; id: string } | undefined;
  for (;;) {
    const rows = await entriesPage(db, scope, accountId, before, PAGE);
    for (const row of rows) {
      const record = toLogRecord(row);
      yield COLUMNS.map((c) => csvField(record[c])).join(",") + "\n";
    }
    if (rows.length < PAGE) return;
    before = rows.at(-1);
  }
}
