/**
 * Cursor (keyset) paging: `after` / `before` name an item; the page holds the items beyond it in the sort order,
 * comparing the sort keys (id last) with the cursor item's own values, read by a scoped subquery.
 */
import type { ResourceSpec, Scope } from "./resource";
import { column, Params, scopeSql, table, type CompiledQuery } from "./sql-parts";
import type { ListQuery, SortKey } from "./types";

/** The direction a key is read in: descending XOR walking backwards. */
const descending = (key: SortKey, backwards: boolean) => key.desc !== backwards;

/** `(SELECT kN FROM cursor_row)` for each sort key, and the CTE that reads them from the cursor item (in scope). */
function cursorRow(keys: SortKey[], cursorId: string, spec: ResourceSpec, scope: Scope, p: Params) {
  const select = keys.map((k, i) => `${column(k.column, "c")} AS k${i}`).join(", ");
  const where = `${column(spec.idColumn, "c")} = ${p.add(cursorId)} AND ${scopeSql(spec, "c", scope, p)}`;
  return {
    withClause: `WITH cursor_row AS (SELECT ${select} FROM ${table(spec)} c WHERE ${where}) `,
    value: (i: number) => `(SELECT k${i} FROM cursor_row)`,
  };
}

/** Row `t` is beyond the cursor value `v` on this key (NULLs last ascending, first descending, as ORDER BY has them). */
function beyond(key: SortKey, v: string, backwards: boolean): string {
  const col = column(key.column);
  const desc = descending(key, backwards);
  const strict = `${col} ${desc ? "<" : ">"} ${v}`;
  if (!key.nullable) return strict;
  return desc
    ? `(${strict} OR (${col} IS NOT NULL AND ${v} IS NULL))`
    : `(${strict} OR (${col} IS NULL AND ${v} IS NOT NULL))`;
}

const same = (key: SortKey, v: string) => `${column(key.column)} ${key.nullable ? "IS NOT DISTINCT FROM" : "="} ${v}`;

/**
 * The condition "t comes after the cursor item" in the page's reading order, for any sort:
 * - keys all in one direction and NOT NULL: a row comparison `(t.a, t.id) > (cursor a, cursor id)`, which a btree on
 *   (scope…, a, id) serves as an index condition;
 * - otherwise an OR-chain (equal on the earlier keys, beyond on this one), plus, when the first key is NOT NULL, the
 *   bound it implies on that key on its own, so an index scan starts at the cursor instead of filtering up to it.
 * A cursor id that is not an item in scope gives NULL values: no row qualifies (see compileCursorCheck to tell).
 */
export function keysetSql(
  q: ListQuery,
  spec: ResourceSpec,
  scope: Scope,
  p: Params,
): { withClause: string; condition: string } | undefined {
  const cursorId = q.after ?? q.before;
  if (cursorId === undefined) return undefined;
  const backwards = q.before !== undefined;
  const keys = q.sort;
  const { withClause, value } = cursorRow(keys, cursorId, spec, scope, p);
  const first = keys[0]!;
  const oneDirection = keys.every((k) => descending(k, backwards) === descending(first, backwards));
  if (oneDirection && keys.every((k) => !k.nullable)) {
    const row = (items: string[]) => `(${items.join(", ")})`;
    const op = descending(first, backwards) ? "<" : ">";
    return {
      withClause,
      condition: `${row(keys.map((k) => column(k.column)))} ${op} ${row(keys.map((_, i) => value(i)))}`,
    };
  }
  const branches = keys.map((key, i) =>
    [...keys.slice(0, i).map((k, j) => same(k, value(j))), beyond(key, value(i), backwards)].join(" AND "),
  );
  const chain = branches.map((b) => `(${b})`).join(" OR ");
  if (first.nullable) return { withClause, condition: `(${chain})` };
  const bound = `${column(first.column)} ${descending(first, backwards) ? "<=" : ">="} ${value(0)}`;
  return { withClause, condition: `${bound} AND (${chain})` };
}

/** ORDER BY for the page's reading order: `before` reads backwards (finishPage turns the page round again). */
export function orderBySql(q: ListQuery): string {
  const backwards = q.before !== undefined;
  return q.sort.map((k) => `${column(k.column)} ${descending(k, backwards) ? "DESC" : "ASC"}`).join(", ");
}

/**
 * Whether the before/after item exists in the caller's business and mode. Run it before the page: when it returns
 * no row, answer 400 (unknown cursor) — the page query alone would return an empty page. undefined without a cursor.
 */
export function compileCursorCheck(q: ListQuery, spec: ResourceSpec, scope: Scope): CompiledQuery | undefined {
  const cursorId = q.after ?? q.before;
  if (cursorId === undefined) return undefined;
  const p = new Params();
  const text = `SELECT 1 AS found FROM ${table(spec)} t WHERE ${column(spec.idColumn)} = ${p.add(cursorId)} AND ${scopeSql(spec, "t", scope, p)}`;
  return { text, values: p.values };
}

/**
 * The page in the requested order (a `before` page is read backwards, so it is reversed here) and hasMore as the
 * interface defines it: true when the page holds `limit` items.
 */
export function finishPage<T>(rows: T[], q: ListQuery): { data: T[]; metadata: { hasMore: boolean } } {
  const data = q.before !== undefined ? [...rows].reverse() : rows;
  return { data, metadata: { hasMore: rows.length === q.limit } };
}
