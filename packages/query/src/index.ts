export { compileCountQuery, compileListQuery } from "./compile-sql";
export { compileCursorCheck, finishPage } from "./cursor";
export { FILTER_FORMAT_ERROR, FILTER_FORMAT_MESSAGE, QueryError } from "./errors";
export { ALLOWED, MAX_CONDITIONS } from "./parse-filter";
export {
  LIST_PARAMETERS,
  MAX_EXPAND_DEPTH,
  MAX_PAGE_OFFSET,
  MAX_PARAMETER_LENGTH,
  MAX_SELECT_DEPTH,
  parseListQuery,
  type ParseOptions,
} from "./parse-params";
export {
  DEFAULT_LIMIT,
  DEFAULT_MAX_LIMIT,
  defineResource,
  scopedResource,
  type FieldSpec,
  type FieldType,
  type ResourceSpec,
  type Scope,
} from "./resource";
export { ALWAYS_KEPT, applyExpand, applySelect, type ExpandLoader } from "./select-expand";
export type { CompiledQuery } from "./sql-parts";
export { tokenizeFilter, type RawExpression } from "./tokenize";
export * from "./types";
