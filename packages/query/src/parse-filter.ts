/** filter / or / nor / and: written expressions → conditions checked against the resource → a filter tree. */
import { invalidQuery, shown } from "./errors";
import { fieldOf, type FieldSpec, type FieldType, type ResourceSpec } from "./resource";
import { tokenizeFilter, type RawExpression } from "./tokenize";
import type { Condition, FilterNode, Operator, Scalar } from "./types";
import { booleanValue, dateValue, listItems, numberValue, patternValue, scalar, wholeNumber } from "./values";

/** At most this many expressions over filter, or, nor and and together. */
export const MAX_CONDITIONS = 100;

const COMPARISONS: Operator[] = ["gt", "gte", "lt", "lte"];
const DATE_OPS: Operator[] = ["gtd", "gted", "ltd", "lted"];
const LISTS: Operator[] = ["in", "nin", "all"];

/** The kind of thing a condition addresses: a declared field's type, or "path" for a dot path below an object field. */
export type FieldKind = FieldType | "path";

/** Which operators each kind takes. */
export const ALLOWED: Record<FieldKind, readonly Operator[]> = {
  string: ["eq", "ne", "like", "nlike", "in", "nin", "exists", ...COMPARISONS],
  id: ["eq", "ne", "like", "nlike", "in", "nin", "exists", ...COMPARISONS],
  number: ["eq", "ne", "in", "nin", "exists", ...COMPARISONS],
  boolean: ["eq", "ne", "exists"],
  date: ["eq", "ne", "in", "nin", "exists", ...COMPARISONS, ...DATE_OPS],
  array: ["eq", "ne", "in", "nin", "all", "size", "nsize", "exists"],
  object: ["exists"],
  path: ["eq", "ne", "in", "nin", "like", "nlike", "exists", ...COMPARISONS],
};

interface Resolved {
  field: string;
  fieldSpec: FieldSpec;
  path: string[];
}

/** `metadata.a.b` → metadata + ["a", "b"]; `customer.id` → the id field customer; anything else must be declared. */
function resolveField(name: string, spec: ResourceSpec, where: string): Resolved {
  const [head = "", ...rest] = name.split(".");
  const fieldSpec = fieldOf(spec, head);
  if (!fieldSpec) throw invalidQuery(`unknown field "${shown(name)}" in ${where}`);
  if (fieldSpec.filterable === false) throw invalidQuery(`field "${shown(head)}" cannot be filtered (in ${where})`);
  if (rest.length === 0) return { field: head, fieldSpec, path: [] };
  if (fieldSpec.type === "object") return { field: head, fieldSpec, path: rest };
  if (fieldSpec.type === "id" && rest.length === 1 && rest[0] === "id") return { field: head, fieldSpec, path: [] };
  throw invalidQuery(`unknown field "${shown(name)}" in ${where}: "${shown(head)}" has no nested fields`);
}

/** One value for a field of this kind. */
function typed(text: string, quoted: boolean, kind: FieldKind, field: string): Scalar | boolean {
  switch (kind) {
    case "date":
      return dateValue(text, field);
    case "boolean":
      return booleanValue(text, `field "${shown(field)}"`);
    case "number":
      return numberValue(text, field);
    case "string":
    case "id":
      return text;
    default:
      return scalar(text, quoted);
  }
}

function conditionValue(raw: RawExpression, kind: FieldKind, field: string): Condition["value"] {
  const { op, value, quoted } = raw;
  switch (op) {
    case "exists":
      return booleanValue(value, "exists");
    case "size":
    case "nsize":
      return wholeNumber(value, op);
    case "like":
    case "nlike":
      return patternValue(value);
    default:
      if (LISTS.includes(op)) return listItems(value, op).map((item) => typed(item, quoted, kind, field) as Scalar);
      return typed(value, quoted, kind, field);
  }
}

/** Checks one written expression against the resource: the field, the operator for its type, the value's type. */
export function toCondition(raw: RawExpression, spec: ResourceSpec, where: string): Condition {
  const { field, fieldSpec, path } = resolveField(raw.field, spec, where);
  const kind: FieldKind = path.length > 0 ? "path" : fieldSpec.type;
  if (!ALLOWED[kind].includes(raw.op)) {
    const what = kind === "path" ? `a path inside "${shown(field)}"` : `field "${shown(field)}" (${fieldSpec.type})`;
    throw invalidQuery(`operator ${raw.op} does not apply to ${what} in ${where}`);
  }
  return { field, spec: fieldSpec, path, op: raw.op, value: conditionValue(raw, kind, raw.field) };
}

/** Each parameter as given: a parameter repeated in the URL (`?filter=a&filter=b`) is several texts of one block. */
export interface FilterParams {
  filter?: string[];
  or?: string[];
  nor?: string[];
  and?: string[];
}

/**
 * filter entries are ANDed; `or` entries are ORed; `nor` is NOT (a OR b …); `and` is AND; all the blocks given are
 * ANDed together. Every block is tokenised before any field is checked, so a malformed expression anywhere is the
 * malformed-filter error even when another expression names an unknown field.
 */
export function parseFilters(params: FilterParams, spec: ResourceSpec): FilterNode | undefined {
  const blocks: Array<{ kind: "and" | "or" | "nor"; where: string; raws: RawExpression[] }> = [];
  const read = (texts: string[] | undefined, kind: "and" | "or" | "nor", where: string) => {
    const raws = (texts ?? []).flatMap(tokenizeFilter);
    if (raws.length > 0) blocks.push({ kind, where, raws });
  };
  read(params.filter, "and", "filter");
  read(params.or, "or", "or");
  read(params.nor, "nor", "nor");
  read(params.and, "and", "and");
  const count = blocks.reduce((n, b) => n + b.raws.length, 0);
  if (count > MAX_CONDITIONS)
    throw invalidQuery(`at most ${MAX_CONDITIONS} filter expressions are allowed, not ${count}`);
  const nodes: FilterNode[] = blocks.map(({ kind, where, raws }) => ({
    kind,
    children: raws.map((raw): FilterNode => ({ kind: "condition", condition: toCondition(raw, spec, where) })),
  }));
  if (nodes.length === 0) return undefined;
  return nodes.length === 1 ? nodes[0] : { kind: "and", children: nodes };
}
