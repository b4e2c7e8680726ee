/** Pieces shared by the compilers: bound parameters, checked names, the scope condition. */
import { sqlIdentifier, sqlTable, type ResourceSpec, type Scope } from "./resource";

/** Compiled SQL: the text holds only `$n` placeholders and names checked against the spec; values are bound. */
export interface CompiledQuery {
  text: string;
  values: unknown[];
}

/** Collects bound values and hands out their placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `alias.column`, the column checked to be a plain identifier. */
export const column = (name: string, alias = "t"): string => `${alias}.${sqlIdentifier(name)}`;

export const table = (spec: ResourceSpec): string => sqlTable(spec.table);

/** `alias.business = $x AND alias.mode = $y`: part of every statement, the cursor lookup included. */
export function scopeSql(spec: ResourceSpec, alias: string, scope: Scope, p: Params): string {
  return `${column(spec.scope.business, alias)} = ${p.add(scope.businessId)} AND ${column(spec.scope.mode, alias)} = ${p.add(scope.mode)}`;
}
