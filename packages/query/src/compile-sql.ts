import type { Condition, FilterNode, ListQuery, ResourceSpec, Scalar, Scope, SortKey } from "./types";

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const TABLE = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

/** Collects bound values; SQL text only ever holds $n placeholders and names checked against the spec. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function column(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`resource spec: bad column name ${name}`);
  return `t.${name}`;
}

function table(spec: ResourceSpec): string {
  if (!TABLE.test(spec.table)) throw new Error(`resource spec: bad table name ${spec.table}`);
  return spec.table;
}

const COMPARE: Record<string, string> = { gt: ">", gte: ">=", lt: "<", lte: "<=", gtd: ">", gted: ">=", ltd: "<", lted: "<=" };
const CAST: Record<string, string> = { string: "text", id: "text", number: "numeric", boolean: "boolean", date: "timestamptz" };

function scalarCondition(c: Condition, p: Params): string {
  const col = column(c.spec.column);
  const cast = CAST[c.spec.type]!;
  switch (c.op) {
    case "eq":
      return `${col} = ${p.add(c.value)}::${cast}`;
    case "ne":
      return `${col} IS DISTINCT FROM ${p.add(c.value)}::${cast}`;
    case "in":
      return `${col} = ANY(${p.add(c.value)}::${cast}[])`;
    case "nin":
      return `(${col} IS NULL OR NOT (${col} = ANY(${p.add(c.value)}::${cast}[])))`;
    case "like":
      return `${col}::text ~* ${p.add(c.value)}::text`;
    case "nlike":
      return `(${col} IS NULL OR ${col}::text !~* ${p.add(c.value)}::text)`;
    case "exists":
      return c.value ? `${col} IS NOT NULL` : `${col} IS NULL`;
    default:
      return `${col} ${COMPARE[c.op]} ${p.add(c.value)}::${cast}`;
  }
}

const jsonAlternatives = (value: Scalar): Scalar[] => (typeof value === "number" ? [value, String(value)] : [value]);

function arrayCondition(c: Condition, p: Params): string {
  const col = column(c.spec.column);
  const elements = `SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(${col}) = 'array' THEN ${col} ELSE '[]'::jsonb END) e(v)`;
  const contains = (value: Scalar) =>
    `(${jsonAlternatives(value).map((v) => `${col} @> ${p.add(JSON.stringify([v]))}::jsonb`).join(" OR ")})`;
  const size = `CASE WHEN jsonb_typeof(${col}) = 'array' THEN jsonb_array_length(${col}) END`;
  switch (c.op) {
    case "eq":
      return contains(c.value as Scalar);
    case "ne":
      return `NOT ${contains(c.value as Scalar)}`;
    case "all":
      return `(${(c.value as Scalar[]).map(contains).join(" AND ")})`;
    case "in":
      return `EXISTS (${elements} WHERE e.v = ANY(${p.add((c.value as Scalar[]).map(String))}::text[]))`;
    case "nin":
      return `NOT EXISTS (${elements} WHERE e.v = ANY(${p.add((c.value as Scalar[]).map(String))}::text[]))`;
    case "size":
      return `${size} = ${p.add(c.value)}::int`;
    case "nsize":
      return `${size} IS DISTINCT FROM ${p.add(c.value)}::int`;
    default:
      return c.value ? `${col} IS NOT NULL` : `${col} IS NULL`;
  }
}

/** Nested object {a: {b: value}} for containment, so a GIN index on the column serves equality. */
function nested(path: string[], value: Scalar): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function pathCondition(c: Condition, p: Params): string {
  const col = column(c.spec.column);
  // Bound only where used: Postgres cannot type a parameter that the statement never mentions.
  let boundPath: string | undefined;
  const path = () => (boundPath ??= p.add(c.path));
  const textOf = () => `(${col} #>> ${path()}::text[])`;
  const equals = (value: Scalar) =>
    `(${jsonAlternatives(value).map((v) => `${col} @> ${p.add(JSON.stringify(nested(c.path, v)))}::jsonb`).join(" OR ")})`;
  switch (c.op) {
    case "eq":
      return equals(c.value as Scalar);
    case "ne":
      return `NOT ${equals(c.value as Scalar)}`;
    case "in":
      return `${textOf()} = ANY(${p.add((c.value as Scalar[]).map(String))}::text[])`;
    case "nin": {
      const text = textOf();
      return `(${text} IS NULL OR NOT (${text} = ANY(${p.add((c.value as Scalar[]).map(String))}::text[])))`;
    }
    case "like":
      return `${textOf()} ~* ${p.add(c.value)}::text`;
    case "nlike": {
      const text = textOf();
      return `(${text} IS NULL OR ${text} !~* ${p.add(c.value)}::text)`;
    }
    case "exists":
      return `${col} #> ${path()}::text[] IS ${c.value ? "NOT " : ""}NULL`;
    default: {
      const text = textOf();
      if (typeof c.value === "number") {
        const number = `(CASE WHEN jsonb_typeof(${col} #> ${path()}::text[]) = 'number' THEN ${text}::numeric END)`;
        return `${number} ${COMPARE[c.op]} ${p.add(c.value)}::numeric`;
      }
      return `${text} ${COMPARE[c.op]} ${p.add(c.value)}::text`;
    }
  }
}

function conditionSql(c: Condition, p: Params): string {
  if (c.path.length > 0) return pathCondition(c, p);
  if (c.spec.type === "array") return arrayCondition(c, p);
  if (c.spec.type === "object") return `${column(c.spec.column)} IS ${c.value ? "NOT " : ""}NULL`;
  return scalarCondition(c, p);
}

function filterSql(node: FilterNode, p: Params): string {
  if (node.kind === "condition") return conditionSql(node.condition, p);
  const parts = node.children.map((child) => `(${filterSql(child, p)})`);
  if (node.kind === "nor") return `NOT (${parts.join(" OR ")})`;
  return parts.join(node.kind === "or" ? " OR " : " AND ");
}

function scopeSql(spec: ResourceSpec, alias: string, scope: Scope, p: Params): string {
  const business = spec.scope.business;
  const mode = spec.scope.mode;
  if (!IDENTIFIER.test(business) || !IDENTIFIER.test(mode)) throw new Error("resource spec: bad scope columns");
  return `${alias}.${business} = ${p.add(scope.businessId)} AND ${alias}.${mode} = ${p.add(scope.mode)}`;
}

/**
 * Keyset condition: rows strictly after (or before) the cursor item in the sort order, whatever the directions —
 * an OR over the keys: equal on the earlier keys, beyond on this one.
 */
function keysetSql(
  keys: SortKey[],
  cursorId: string,
  backwards: boolean,
  spec: ResourceSpec,
  scope: Scope,
  p: Params,
): { withClause: string; condition: string } {
  const cursor = `(SELECT ${keys.map((k, i) => `c.${k.column} AS k${i}`).join(", ")} FROM ${table(spec)} c WHERE c.${spec.idColumn} = ${p.add(cursorId)} AND ${scopeSql(spec, "c", scope, p)})`;
  const value = (i: number) => `(SELECT k${i} FROM cursor_row)`;
  const branches = keys.map((key, i) => {
    const beyond = key.desc !== backwards ? "<" : ">";
    const equal = keys.slice(0, i).map((k, j) => `${column(k.column)} = ${value(j)}`);
    return [...equal, `${column(key.column)} ${beyond} ${value(i)}`].join(" AND ");
  });
  // The OR-chain implies a bound on the first key; stated on its own it is an index condition, so the scan starts
  // at the cursor instead of filtering everything before it.
  const first = keys[0]!;
  const bound = `${column(first.column)} ${first.desc !== backwards ? "<=" : ">="} ${value(0)}`;
  return { withClause: `WITH cursor_row AS ${cursor} `, condition: `${bound} AND (${branches.map((b) => `(${b})`).join(" OR ")})` };
}

function whereAndCursor(q: ListQuery, spec: ResourceSpec, scope: Scope, p: Params): { withClause: string; where: string } {
  const where = [scopeSql(spec, "t", scope, p)];
  if (q.filter) where.push(`(${filterSql(q.filter, p)})`);
  let withClause = "";
  const cursorId = q.after ?? q.before;
  if (cursorId) {
    const keyset = keysetSql(q.sort, cursorId, Boolean(q.before), spec, scope, p);
    withClause = keyset.withClause;
    where.push(`(${keyset.condition})`);
  }
  return { withClause, where: where.join(" AND ") };
}

export function compileListQuery(q: ListQuery, spec: ResourceSpec, scope: Scope): { text: string; values: unknown[] } {
  const p = new Params();
  const { withClause, where } = whereAndCursor(q, spec, scope, p);
  const backwards = Boolean(q.before);
  const order = q.sort.map((k) => `${column(k.column)} ${k.desc !== backwards ? "DESC" : "ASC"}`).join(", ");
  const text = `${withClause}SELECT t.* FROM ${table(spec)} t WHERE ${where} ORDER BY ${order} LIMIT ${p.add(q.limit)}`;
  return { text, values: p.values };
}

export function compileCountQuery(q: ListQuery, spec: ResourceSpec, scope: Scope): { text: string; values: unknown[] } {
  const p = new Params();
  const where = [scopeSql(spec, "t", scope, p)];
  if (q.filter) where.push(`(${filterSql(q.filter, p)})`);
  return { text: `SELECT count(*)::int AS count FROM ${table(spec)} t WHERE ${where.join(" AND ")}`, values: p.values };
}

/** Whether the before/after item exists in scope; run it first so an unknown cursor is a 400, not an empty page. */
export function compileCursorCheck(q: ListQuery, spec: ResourceSpec, scope: Scope): { text: string; values: unknown[] } | undefined {
  const cursorId = q.after ?? q.before;
  if (!cursorId) return undefined;
  const p = new Params();
  const text = `SELECT 1 FROM ${table(spec)} t WHERE t.${spec.idColumn} = ${p.add(cursorId)} AND ${scopeSql(spec, "t", scope, p)}`;
  return { text, values: p.values };
}
