import { invalidQuery } from "./errors";
import { tokenizeFilter, type RawExpression } from "./tokenize";
import type { Condition, FieldSpec, FieldType, FilterNode, Operator, ResourceSpec, Scalar } from "./types";

const NUMERIC = /^-?\d+(\.\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const COMPARISONS: Operator[] = ["gt", "gte", "lt", "lte"];
const DATE_OPS: Operator[] = ["gtd", "gted", "ltd", "lted"];
const LISTS: Operator[] = ["in", "nin", "all"];

/** Which operators each kind of field takes ("path" = a dot path below an object field). */
const ALLOWED: Record<FieldType | "path", Operator[]> = {
  string: ["eq", "ne", "like", "nlike", "in", "nin", "exists", ...COMPARISONS],
  id: ["eq", "ne", "like", "nlike", "in", "nin", "exists", ...COMPARISONS],
  number: ["eq", "ne", "in", "nin", "exists", ...COMPARISONS],
  boolean: ["eq", "ne", "exists"],
  date: ["eq", "ne", "exists", ...COMPARISONS, ...DATE_OPS],
  array: ["eq", "ne", "in", "nin", "all", "size", "nsize", "exists"],
  object: ["exists"],
  path: ["eq", "ne", "in", "nin", "like", "nlike", "exists", ...COMPARISONS],
};

const scalar = (text: string, quoted: boolean): Scalar => (!quoted && NUMERIC.test(text) ? Number(text) : text);

function resolveField(name: string, spec: ResourceSpec, where: string): { field: string; fieldSpec: FieldSpec; path: string[] } {
  const [head, ...rest] = name.split(".");
  const fieldSpec = Object.hasOwn(spec.fields, head!) ? spec.fields[head!] : undefined;
  if (!fieldSpec) throw invalidQuery(`unknown field "${name}" in ${where}`);
  if (fieldSpec.filterable === false) throw invalidQuery(`field "${head}" cannot be filtered`);
  if (rest.length === 0) return { field: head!, fieldSpec, path: [] };
  if (fieldSpec.type === "object") return { field: head!, fieldSpec, path: rest };
  if (fieldSpec.type === "id" && rest.length === 1 && rest[0] === "id") return { field: head!, fieldSpec, path: [] };
  throw invalidQuery(`unknown field "${name}" in ${where}: "${head}" has no nested fields`);
}

const MAX_TIME = 8.64e15;

/** An ISO 8601 date (a real calendar day) or epoch milliseconds, passed on in one canonical form. */
function dateValue(text: string, field: string): string {
  const bad = () => invalidQuery(`"${text}" is not an ISO 8601 date for field "${field}"`);
  if (NUMERIC.test(text)) {
    if (Math.abs(Number(text)) > MAX_TIME) throw bad();
    return new Date(Number(text)).toISOString();
  }
  if (!ISO_DATE.test(text)) throw bad();
  const [y, m, d] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  const time = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d || Number.isNaN(time)) throw bad();
  return new Date(time).toISOString();
}

function typedValue(raw: RawExpression, kind: FieldType | "path", field: string): Condition["value"] {
  const { op, value, quoted } = raw;
  if (op === "exists") {
    if (value !== "true" && value !== "false") throw invalidQuery(`exists takes true or false, not "${value}"`);
    return value === "true";
  }
  if (op === "size" || op === "nsize") {
    if (!/^\d{1,9}$/.test(value)) throw invalidQuery(`${op} takes a whole number, not "${value}"`);
    return Number(value);
  }
  const one = (text: string): Scalar => {
    if (kind === "date") return dateValue(text, field);
    if (kind === "boolean") {
      if (text !== "true" && text !== "false") throw invalidQuery(`field "${field}" takes true or false, not "${text}"`);
      return text;
    }
    const parsed = scalar(text, quoted);
    if (typeof parsed === "number" && !Number.isFinite(parsed)) throw invalidQuery(`"${text}" is too large a number`);
    if (kind === "number" && typeof parsed !== "number") throw invalidQuery(`field "${field}" takes a number, not "${text}"`);
    if ((kind === "string" || kind === "id") ) return String(text);
    return parsed;
  };
  if (LISTS.includes(op)) {
    const items = value.split(",");
    if (items.some((item) => item === "")) throw invalidQuery(`${op} takes a comma-separated list without empty items`);
    return items.map(one);
  }
  if (op === "like" || op === "nlike") {
    try {
      new RegExp(value);
    } catch {
      throw invalidQuery(`"${value}" is not a valid regular expression`);
    }
    return value;
  }
  return one(value);
}

/** Checks one written expression against the resource: the field, the operator for its type, the value's type. */
export function toCondition(raw: RawExpression, spec: ResourceSpec, where: string): Condition {
  const { field, fieldSpec, path } = resolveField(raw.field, spec, where);
  const kind: FieldType | "path" = path.length > 0 ? "path" : fieldSpec.type;
  if (!ALLOWED[kind].includes(raw.op)) {
    const what = kind === "path" ? `a path inside "${field}"` : `field "${field}" (${fieldSpec.type})`;
    throw invalidQuery(`operator ${raw.op} does not apply to ${what}`);
  }
  return { field, spec: fieldSpec, path, op: raw.op, value: typedValue(raw, kind, raw.field) };
}

/** filter entries are ANDed; `or`, `nor` and `and` combine theirs; all given blocks are ANDed together. */
export function parseFilters(params: { filter?: string; or?: string; nor?: string; and?: string }, spec: ResourceSpec): FilterNode | undefined {
  const blocks: FilterNode[] = [];
  const block = (text: string | undefined, kind: "and" | "or" | "nor", where: string) => {
    if (text === undefined || text.trim() === "") return;
    const children = tokenizeFilter(text).map((raw): FilterNode => ({ kind: "condition", condition: toCondition(raw, spec, where) }));
    blocks.push({ kind, children });
  };
  block(params.filter, "and", "filter");
  block(params.or, "or", "or");
  block(params.nor, "nor", "nor");
  block(params.and, "and", "and");
  if (blocks.length === 0) return undefined;
  return blocks.length === 1 ? blocks[0] : { kind: "and", children: blocks };
}
