import type { Request } from "express";
import { ONE_OFF, type Queryable } from "@cardhold/db";
import {
  applyExpand,
  applySelect,
  compileCountQuery,
  compileCursorCheck,
  compileListQuery,
  finishPage,
  parseListQuery,
  QueryError,
  type ExpandLoader,
  type FilterNode,
  type ListQuery,
  type ResourceSpec,
} from "@cardhold/query";
import { AppError } from "./errors";

export interface ListOptions<Row> {
  db: Queryable;
  spec: ResourceSpec;
  scope: { businessId: string; mode: string };
  toRecord: (row: Row) => Record<string, unknown>;
  loaders?: Record<string, ExpandLoader>;
  /** Fixed conditions `field = value` on declared fields (e.g. the account of /accounts/:id/logs), ANDed with the caller's filters. */
  within?: Record<string, string>;
}

const INVALID_REGEX = "2201B";

/** A list endpoint through the query language: {code, data, metadata: {hasMore, totalCount?}}. */
export async function listResource<Row>(req: Request, opts: ListOptions<Row>) {
  const query = withinFixed(parseOrThrow(req.query as Record<string, unknown>, opts.spec), opts);
  try {
    const page = compileListQuery(query, opts.spec, opts.scope);
    const { rows } = await opts.db.query(ONE_OFF + page.text, page.values);
    // An unknown cursor leaves the page empty: only then is it worth a statement to tell that from the end of the list.
    const cursorCheck = rows.length === 0 ? compileCursorCheck(query, opts.spec, opts.scope) : undefined;
    if (cursorCheck && (await opts.db.query(ONE_OFF + cursorCheck.text, cursorCheck.values)).rowCount === 0) {
      throw new AppError(400, "invalid-query", `no ${opts.spec.name} ${query.after ?? query.before} to page from`);
    }
    const { data, metadata } = finishPage(rows as Row[], query);
    let records = data.map(opts.toRecord);
    if (opts.loaders) records = await applyExpand(records, query, opts.spec, opts.loaders, opts.scope);
    records = records.map((r) => applySelect(r, query));
    const result: { hasMore: boolean; totalCount?: number } = { ...metadata };
    if (query.countTotal) {
      const count = compileCountQuery(query, opts.spec, opts.scope);
      const { rows: countRows } = await opts.db.query<{ count: number }>(ONE_OFF + count.text, count.values);
      result.totalCount = Number(countRows[0]?.count ?? 0);
    }
    return { code: "success" as const, data: records, metadata: result };
  } catch (error) {
    if ((error as { code?: string }).code === INVALID_REGEX) {
      throw new AppError(400, "invalid-query", "A like / nlike value is not a valid regular expression");
    }
    throw toAppError(error);
  }
}

/** The caller's query with `within`'s fixed conditions ANDed in (none: the query as it is). */
export function withinFixed<Row>(query: ListQuery, opts: Pick<ListOptions<Row>, "spec" | "within">): ListQuery {
  const entries = Object.entries(opts.within ?? {});
  if (entries.length === 0) return query;
  const fixed: FilterNode[] = entries.map(([field, value]) => {
    const spec = opts.spec.fields[field];
    if (!spec) throw new Error(`listResource: ${field} is not a field of ${opts.spec.name}`);
    return { kind: "condition", condition: { field, spec, path: [], op: "eq", value } };
  });
  return { ...query, filter: { kind: "and", children: query.filter ? [...fixed, query.filter] : fixed } };
}

function parseOrThrow(raw: Record<string, unknown>, spec: ResourceSpec) {
  try {
    return parseListQuery(raw, spec);
  } catch (error) {
    throw toAppError(error);
  }
}

function toAppError(error: unknown): unknown {
  if (!(error instanceof QueryError)) return error;
  const body = error.body as Record<string, unknown>;
  return new AppError(400, error.code, error.message, undefined, body);
}
