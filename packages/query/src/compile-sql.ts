/** ListQuery → parameterised PostgreSQL for the page and for the total count. */
import { filterSql } from "./compile-filter";
import { keysetSql, orderBySql } from "./cursor";
import type { ResourceSpec, Scope } from "./resource";
import { Params, scopeSql, table, type CompiledQuery } from "./sql-parts";
import type { ListQuery } from "./types";

function whereSql(q: ListQuery, spec: ResourceSpec, scope: Scope, p: Params): string[] {
  const where = [scopeSql(spec, "t", scope, p)];
  if (q.filter) where.push(`(${filterSql(q.filter, p)})`);
  return where;
}

/**
 * The page: `SELECT t.* FROM <table> t WHERE <scope> AND (<filters>) AND (<keyset>) ORDER BY <sort…, id> LIMIT $n`
 * (and `OFFSET $m` for a `page` past the first).
 * With `before` the order is reversed; pass the rows through finishPage.
 */
export function compileListQuery(q: ListQuery, spec: ResourceSpec, scope: Scope): CompiledQuery {
  const p = new Params();
  const keyset = keysetSql(q, spec, scope, p);
  const where = whereSql(q, spec, scope, p);
  if (keyset) where.push(`(${keyset.condition})`);
  const text = `${keyset?.withClause ?? ""}SELECT t.* FROM ${table(spec)} t WHERE ${where.join(" AND ")} ORDER BY ${orderBySql(q)} LIMIT ${p.add(q.limit)}${q.offset > 0 ? ` OFFSET ${p.add(q.offset)}` : ""}`;
  return { text, values: p.values };
}

/** `SELECT count(*)::int AS count` with the same scope and filters; no cursor, order or limit. */
export function compileCountQuery(q: ListQuery, spec: ResourceSpec, scope: Scope): CompiledQuery {
  const p = new Params();
  return {
    text: `SELECT count(*)::int AS count FROM ${table(spec)} t WHERE ${whereSql(q, spec, scope, p).join(" AND ")}`,
    values: p.values,
  };
}
