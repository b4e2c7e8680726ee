/** How a list endpoint's table looks to the query language: its public fields, columns, scope and relations. */

export type FieldType = "string" | "number" | "boolean" | "date" | "id" | "array" | "object";

export interface FieldSpec {
  type: FieldType;
  /** SQL column on the resource table (an unquoted identifier); "object" and "array" fields are JSONB columns. */
  column: string;
  /** Default true. */
  filterable?: boolean;
  /** Default false. Only string, id, number, boolean and date fields can be sortable. */
  sortable?: boolean;
  /** Default true. */
  selectable?: boolean;
  /**
   * Whether the column may hold NULL; only matters for sortable fields. Default false: keyset paging then compares
   * with plain `<` / `>`, which an index serves. Declare `nullable: true` for a sortable column that is not NOT NULL:
   * cursors then order NULLs as PostgreSQL does (last ascending, first descending) at the cost of the index bound.
   */
  nullable?: boolean;
}

export interface ResourceSpec {
  /** e.g. "customer"; used in messages. */
  name: string;
  /** Schema-qualified table, e.g. "customers.customers". */
  table: string;
  /** Text ids, prefixed and time-ordered. */
  idColumn: string;
  /** timestamptz; the default order is newest first: created desc, id desc. */
  createdColumn: string;
  /** Column names of the business and the mode every query is confined to. */
  scope: { business: string; mode: string };
  /** Public (camelCase) field name → spec. Object fields accept any dot path below them. */
  fields: Record<string, FieldSpec>;
  /** Expandable field → the related resource's name (a key of the loaders given to applyExpand). */
  relations?: Record<string, string>;
  /** Largest page; default 100. */
  maxLimit?: number;
}

export interface Scope {
  businessId: string;
  mode: string;
}

export const DEFAULT_LIMIT = 20;
export const DEFAULT_MAX_LIMIT = 100;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const TABLE = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SORTABLE_TYPES: FieldType[] = ["string", "id", "number", "boolean", "date"];

/** A column name checked to be a plain identifier: the only way a name from a spec reaches SQL text. */
export function sqlIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`resource spec: "${name}" is not a plain lower-case SQL identifier`);
  return name;
}

export function sqlTable(name: string): string {
  if (!TABLE.test(name)) throw new Error(`resource spec: "${name}" is not a plain [schema.]table name`);
  return name;
}

/** The declared field with this public name (own properties only: `constructor` or `__proto__` are not fields). */
export function fieldOf(spec: ResourceSpec, name: string): FieldSpec | undefined {
  return Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
}

export function relationOf(spec: ResourceSpec, name: string): string | undefined {
  return spec.relations && Object.hasOwn(spec.relations, name) ? spec.relations[name] : undefined;
}

/**
 * Checks a declaration once, at start-up: names are plain identifiers, sortable fields have an orderable type, the
 * limit is sane. A mistake here is a programming error (a plain Error), never a 400.
 */
export function defineResource(spec: ResourceSpec): ResourceSpec {
  sqlTable(spec.table);
  for (const column of [spec.idColumn, spec.createdColumn, spec.scope.business, spec.scope.mode]) sqlIdentifier(column);
  for (const [name, field] of Object.entries(spec.fields)) {
    if (!FIELD_NAME.test(name)) throw new Error(`resource spec ${spec.name}: "${name}" is not a field name`);
    sqlIdentifier(field.column);
    if (field.sortable && !SORTABLE_TYPES.includes(field.type)) {
      throw new Error(`resource spec ${spec.name}: ${field.type} field "${name}" cannot be sortable`);
    }
  }
  for (const name of Object.keys(spec.relations ?? {})) {
    if (!FIELD_NAME.test(name)) throw new Error(`resource spec ${spec.name}: "${name}" is not a relation name`);
  }
  if (spec.maxLimit !== undefined && !(Number.isInteger(spec.maxLimit) && spec.maxLimit >= 1)) {
    throw new Error(`resource spec ${spec.name}: maxLimit must be a positive whole number`);
  }
  return spec;
}

/**
 * A resource following the platform's table conventions: text id in `id`, `created_at`, scoped by `business_id`
 * and `mode`.
 */
export function scopedResource(
  name: string,
  table: string,
  fields: Record<string, FieldSpec>,
  extra: Pick<ResourceSpec, "relations" | "maxLimit"> = {},
): ResourceSpec {
  return defineResource({
    name,
    table,
    idColumn: "id",
    createdColumn: "created_at",
    scope: { business: "business_id", mode: "mode" },
    fields,
    ...extra,
  });
}
