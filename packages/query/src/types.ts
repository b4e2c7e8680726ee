/** The parsed list query (the AST) that the compiler and the select/expand helpers read. */
import type { FieldSpec } from "./resource";

export const OPERATORS = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "like",
  "nlike",
  "in",
  "nin",
  "all",
  "size",
  "nsize",
  "exists",
  "gtd",
  "gted",
  "ltd",
  "lted",
] as const;
export type Operator = (typeof OPERATORS)[number];

/** A filter value: numeric text unquoted is a number, anything else a string (dates: canonical ISO strings). */
export type Scalar = string | number;

/** One filter expression after validation against the resource. */
export interface Condition {
  /** The declared field (for `customer.id` on an id field: `customer`). */
  field: string;
  spec: FieldSpec;
  /** Segments below an object field (metadata.key → ["key"]); empty otherwise. */
  path: string[];
  op: Operator;
  /** exists: boolean; in, nin, all: a list; size, nsize: a whole number; otherwise one scalar. */
  value: Scalar | Scalar[] | boolean;
}

export type FilterNode =
  { kind: "and" | "or" | "nor"; children: FilterNode[] } | { kind: "condition"; condition: Condition };

export interface SortKey {
  field: string;
  column: string;
  desc: boolean;
  /** The column may be NULL (FieldSpec.nullable): the keyset compares NULL-aware. */
  nullable?: boolean;
}

export interface Selection {
  mode: "include" | "exclude";
  fields: string[];
}

export interface ListQuery {
  limit: number;
  /** Always ends with the id as tiebreak, in the direction of the key before it. */
  sort: SortKey[];
  select?: Selection;
  /** Expand path ("card" or "card.program") → subfields to keep, or undefined for all. Parents come first. */
  expand: Map<string, string[] | undefined>;
  filter?: FilterNode;
  before?: string;
  after?: string;
  /** Items skipped before the page: `page` (from 0) × limit, the original interface's paging; 0 without it. */
  offset: number;
  countTotal: boolean;
}
