export type FieldType = "string" | "number" | "boolean" | "date" | "id" | "array" | "object";

export interface FieldSpec {
  type: FieldType;
  /** SQL column on the resource table; "object" and "array" fields are JSONB columns. */
  column: string;
  /** Default true. */
  filterable?: boolean;
  /** Default false. Sortable columns must be NOT NULL (keyset paging compares them). */
  sortable?: boolean;
  /** Default true. */
  selectable?: boolean;
}

export interface ResourceSpec {
  name: string;
  /** Schema-qualified table, e.g. "customers.customers". */
  table: string;
  idColumn: string;
  createdColumn: string;
  scope: { business: string; mode: string };
  /** Public (camelCase) field name → column. Object fields accept any dot path below them. */
  fields: Record<string, FieldSpec>;
  /** Expandable field → the related resource's name (a key of the loaders given to applyExpand). */
  relations?: Record<string, string>;
  /** Largest page; default 100. */
  maxLimit?: number;
}

export const OPERATORS = [
  "eq", "ne", "gt", "gte", "lt", "lte", "like", "nlike", "in", "nin", "all", "size", "nsize", "exists",
  "gtd", "gted", "ltd", "lted",
] as const;
export type Operator = (typeof OPERATORS)[number];

export type Scalar = string | number;

/** One filter expression after validation against the resource. */
export interface Condition {
  field: string;
  spec: FieldSpec;
  /** Segments below an object field (metadata.key → ["key"]); empty otherwise. */
  path: string[];
  op: Operator;
  value: Scalar | Scalar[] | boolean;
}

export type FilterNode =
  | { kind: "and" | "or" | "nor"; children: FilterNode[] }
  | { kind: "condition"; condition: Condition };

export interface SortKey {
  field: string;
  column: string;
  desc: boolean;
}

export interface Selection {
  mode: "include" | "exclude";
  fields: string[];
}

export interface ListQuery {
  limit: number;
  /** Always ends with the id as tiebreak. */
  sort: SortKey[];
  select?: Selection;
  /** Expand path ("card" or "card.program") → subfields to keep, or undefined for all. */
  expand: Map<string, string[] | undefined>;
  filter?: FilterNode;
  before?: string;
  after?: string;
  countTotal: boolean;
}

export interface Scope {
  businessId: string;
  mode: string;
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
  return { name, table, idColumn: "id", createdColumn: "created_at", scope: { business: "business_id", mode: "mode" }, fields, ...extra };
}
