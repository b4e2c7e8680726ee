export { compileCountQuery, compileCursorCheck, compileListQuery } from "./compile-sql";
export { FILTER_FORMAT_MESSAGE, QueryError } from "./errors";
export { finishPage } from "./page";
export { DEFAULT_LIMIT, DEFAULT_MAX_LIMIT, parseListQuery } from "./parse-params";
export { applyExpand, applySelect, type ExpandLoader } from "./select-expand";
export { tokenizeFilter, type RawExpression } from "./tokenize";
export * from "./types";
