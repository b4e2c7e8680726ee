/**
 * Filter tree → SQL condition. The text depends only on the fields, operators and structure: every value, list and
 * JSON path is a bound parameter, and each operator has one text whatever the value's type (where a number and a
 * string need different SQL, both branches are written and the one that does not apply is bound to NULL).
 */
import { column, type Params } from "./sql-parts";
import type { Condition, FilterNode, Scalar } from "./types";

const COMPARE: Record<string, string> = {
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  gtd: ">",
  gted: ">=",
  ltd: "<",
  lted: "<=",
};
const CAST: Record<string, string> = {
  string: "text",
  id: "text",
  number: "numeric",
  boolean: "boolean",
  date: "timestamptz",
};
/** Numeric text, as in the filter grammar; a JSON string holding it compares as a number too. */
const NUMERIC_TEXT = "'^-?[0-9]+(\\.[0-9]+)?$'";

/** The JSON values an equality matches: a number also as its string ("2345" and 2345), true/false also as booleans. */
function jsonAlternatives(value: Scalar): [unknown, unknown] {
  if (typeof value === "number") return [value, String(value)];
  if (value === "true" || value === "false") return [value, value === "true"];
  return [value, value];
}

/** Nested object {a: {b: value}} for containment, so a GIN index on the column serves equality. */
const nested = (path: string[], value: unknown): unknown =>
  path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);

/** `col @> a OR col @> b`: the two JSON forms of one value (the same twice when there is only one). */
function contains(col: string, value: Scalar, wrap: (v: unknown) => unknown, p: Params): string {
  const [a, b] = jsonAlternatives(value);
  return `(${col} @> ${p.add(JSON.stringify(wrap(a)))}::jsonb OR ${col} @> ${p.add(JSON.stringify(wrap(b)))}::jsonb)`;
}

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
      return `${col} IS ${c.value ? "NOT " : ""}NULL`;
    default:
      return `${col} ${COMPARE[c.op]} ${p.add(c.value)}::${cast}`;
  }
}

const texts = (value: Condition["value"]) => (value as Scalar[]).map(String);

function arrayCondition(c: Condition, p: Params): string {
  const col = column(c.spec.column);
  const elements = `jsonb_array_elements_text(CASE WHEN jsonb_typeof(${col}) = 'array' THEN ${col} ELSE '[]'::jsonb END) e(v)`;
  const element = (value: Scalar) => contains(col, value, (v) => [v], p);
  switch (c.op) {
    case "eq":
      return element(c.value as Scalar);
    case "ne":
      return `NOT COALESCE(${element(c.value as Scalar)}, false)`;
    case "in":
      return `EXISTS (SELECT 1 FROM ${elements} WHERE e.v = ANY(${p.add(texts(c.value))}::text[]))`;
    case "nin":
      return `NOT EXISTS (SELECT 1 FROM ${elements} WHERE e.v = ANY(${p.add(texts(c.value))}::text[]))`;
    case "all": {
      // The string items as one containment (a GIN index serves it); every item, numbers included, compared as text.
      const strings = (c.value as Scalar[]).filter((v) => typeof v === "string");
      return `(${col} @> ${p.add(JSON.stringify(strings))}::jsonb AND NOT EXISTS (SELECT 1 FROM unnest(${p.add(texts(c.value))}::text[]) w(v) WHERE NOT EXISTS (SELECT 1 FROM ${elements} WHERE e.v = w.v)))`;
    }
    case "size":
    case "nsize": {
      const size = `(CASE WHEN jsonb_typeof(${col}) = 'array' THEN jsonb_array_length(${col}) END)`;
      return `${size} ${c.op === "size" ? "=" : "IS DISTINCT FROM"} ${p.add(c.value)}::int`;
    }
    default:
      return `${col} IS ${c.value ? "NOT " : ""}NULL`;
  }
}

function pathCondition(c: Condition, p: Params): string {
  const col = column(c.spec.column);
  // Bound only where used: PostgreSQL cannot type a parameter that the statement never mentions.
  let boundPath: string | undefined;
  const path = () => (boundPath ??= `${p.add(c.path)}::text[]`);
  const json = () => `(${col} #> ${path()})`;
  const text = () => `(${col} #>> ${path()})`;
  const equals = () => contains(col, c.value as Scalar, (v) => nested(c.path, v), p);
  switch (c.op) {
    case "eq":
      return equals();
    case "ne":
      return `NOT COALESCE(${equals()}, false)`;
    case "in":
      return `${text()} = ANY(${p.add(texts(c.value))}::text[])`;
    case "nin":
      return `(${text()} IS NULL OR NOT (${text()} = ANY(${p.add(texts(c.value))}::text[])))`;
    case "like":
      return `${text()} ~* ${p.add(c.value)}::text`;
    case "nlike":
      return `(${text()} IS NULL OR ${text()} !~* ${p.add(c.value)}::text)`;
    case "exists":
      return `${json()} IS ${c.value ? "NOT " : ""}NULL`;
    default: {
      // A number compares with JSON numbers and numeric strings, a string with JSON strings; nothing else matches and
      // nothing errors at run time (the casts are guarded). The branch that does not apply is bound to NULL.
      const value = c.value as Scalar;
      const asNumber = `(CASE WHEN jsonb_typeof(${json()}) = 'number' OR (jsonb_typeof(${json()}) = 'string' AND ${text()} ~ ${NUMERIC_TEXT}) THEN ${text()}::numeric END)`;
      const asString = `(CASE WHEN jsonb_typeof(${json()}) = 'string' THEN ${text()} END)`;
      const number = p.add(typeof value === "number" ? value : null);
      const string = p.add(typeof value === "string" ? value : null);
      return `(${asNumber} ${COMPARE[c.op]} ${number}::numeric OR ${asString} ${COMPARE[c.op]} ${string}::text)`;
    }
  }
}

function conditionSql(c: Condition, p: Params): string {
  if (c.path.length > 0) return pathCondition(c, p);
  if (c.spec.type === "array") return arrayCondition(c, p);
  if (c.spec.type === "object") return `${column(c.spec.column)} IS ${c.value ? "NOT " : ""}NULL`;
  return scalarCondition(c, p);
}

/** The condition for a filter tree; `nor` is NOT (a OR b …). */
export function filterSql(node: FilterNode, p: Params): string {
  if (node.kind === "condition") return conditionSql(node.condition, p);
  const parts = node.children.map((child) => `(${filterSql(child, p)})`);
  if (node.kind === "nor") return `NOT COALESCE((${parts.join(" OR ")}), false)`;
  return parts.join(node.kind === "or" ? " OR " : " AND ");
}
