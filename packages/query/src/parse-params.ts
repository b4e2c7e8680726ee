/** express's req.query → a validated ListQuery; every problem is a QueryError (HTTP 400). */
import { invalidQuery, shown } from "./errors";
import { parseFilters } from "./parse-filter";
import { DEFAULT_LIMIT, DEFAULT_MAX_LIMIT, fieldOf, relationOf, type ResourceSpec } from "./resource";
import type { ListQuery, Selection, SortKey } from "./types";

export { DEFAULT_LIMIT, DEFAULT_MAX_LIMIT };
export const MAX_EXPAND_DEPTH = 2;
export const MAX_SELECT_DEPTH = 1;
/** Longest parameter (all its repetitions together), in characters. */
export const MAX_PARAMETER_LENGTH = 8192;
export const LIST_PARAMETERS = [
  "filter",
  "or",
  "nor",
  "and",
  "select",
  "expand",
  "sort",
  "limit",
  "before",
  "after",
  "page",
  "countTotal",
] as const;
/**
 * The most items `page` may skip (page × limit): an OFFSET reads and drops every item before the page, so deep pages
 * cost more and more; past this the cursors (`after`, `before`) page on at the same cost at any depth.
 */
export const MAX_PAGE_OFFSET = 10_000;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CURSOR = /^[A-Za-z0-9._-]{1,128}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface ParseOptions {
  /** Related resources by name (the values of spec.relations): lets `expand=card.program` be checked while parsing. */
  resources?: Record<string, ResourceSpec>;
}

/** A parameter's texts: absent, one string, or several (repeated in the URL); anything else is refused. */
function texts(raw: Record<string, unknown>, name: string): string[] | undefined {
  const value = Object.hasOwn(raw, name) ? raw[name] : undefined;
  if (value === undefined) return undefined;
  const all = Array.isArray(value) ? value : [value];
  if (!all.every((v): v is string => typeof v === "string"))
    throw invalidQuery(`parameter "${shown(name)}" must be a plain value`);
  if (all.reduce((n, v) => n + v.length, 0) > MAX_PARAMETER_LENGTH) {
    throw invalidQuery(`parameter "${shown(name)}" is longer than ${MAX_PARAMETER_LENGTH} characters`);
  }
  // PostgreSQL text holds neither NUL nor half a surrogate pair: refuse them here rather than fail in the database.
  if (all.some((v) => v.includes("\u0000") || LONE_SURROGATE.test(v))) {
    throw invalidQuery(`parameter "${shown(name)}" contains a NUL character or invalid text`);
  }
  return all;
}

/** A single-valued parameter: given twice (`?limit=1&limit=2`) it is an error. */
function single(raw: Record<string, unknown>, name: string): string | undefined {
  const all = texts(raw, name);
  if (all && all.length !== 1) throw invalidQuery(`parameter "${shown(name)}" was given more than once`);
  return all?.[0];
}

const words = (all: string[] | undefined) => (all ?? []).flatMap((text) => text.split(/\s+/)).filter(Boolean);

function parseLimit(text: string | undefined, max: number): number {
  if (text === undefined) return DEFAULT_LIMIT;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw invalidQuery(`limit must be a whole number from 1 to ${max}, not "${shown(text)}"`);
  }
  return Number(text);
}

function parseSort(entries: string[], spec: ResourceSpec): SortKey[] {
  const seen = new Set<string>();
  const keys: SortKey[] = entries.map((word) => {
    const desc = word.startsWith("-");
    const field = desc ? word.slice(1) : word;
    const fieldSpec = fieldOf(spec, field);
    if (!fieldSpec) throw invalidQuery(`unknown sort field "${shown(field)}"`);
    if (!fieldSpec.sortable) throw invalidQuery(`field "${shown(field)}" cannot be sorted on`);
    if (seen.has(field)) throw invalidQuery(`sort names field "${shown(field)}" more than once`);
    seen.add(field);
    return { field, column: fieldSpec.column, desc, ...(fieldSpec.nullable ? { nullable: true } : {}) };
  });
  if (keys.length === 0) keys.push({ field: "createdAt", column: spec.createdColumn, desc: true });
  const last = keys.at(-1)!;
  if (last.column !== spec.idColumn) keys.push({ field: "id", column: spec.idColumn, desc: last.desc });
  return keys;
}

function parseSelect(entries: string[], spec: ResourceSpec): Selection | undefined {
  if (entries.length === 0) return undefined;
  const excludes = entries.filter((e) => e.startsWith("-"));
  if (excludes.length > 0 && excludes.length < entries.length) {
    throw invalidQuery("select takes either fields to include or -fields to exclude, not both");
  }
  const fields = [...new Set(entries.map((e) => (e.startsWith("-") ? e.slice(1) : e)))];
  for (const field of fields) {
    if (field.split(".").length > MAX_SELECT_DEPTH)
      throw invalidQuery(`select "${shown(field)}" is deeper than allowed (depth ${MAX_SELECT_DEPTH})`);
    const declared = fieldOf(spec, field);
    const known =
      (declared && declared.selectable !== false) ||
      relationOf(spec, field) !== undefined ||
      field === "object" ||
      field === "id";
    if (!known) throw invalidQuery(`unknown field "${shown(field)}" in select`);
  }
  return { mode: excludes.length ? "exclude" : "include", fields };
}

function checkExpandPath(entry: string, segments: string[], spec: ResourceSpec, options: ParseOptions): void {
  if (segments.some((s) => !NAME.test(s)))
    throw invalidQuery(`expand "${shown(entry)}" is not path or path:field1,field2`);
  if (segments.length > MAX_EXPAND_DEPTH)
    throw invalidQuery(`expand "${shown(segments.join("."))}" is deeper than allowed (depth ${MAX_EXPAND_DEPTH})`);
  let owner = spec;
  for (const segment of segments) {
    const related = relationOf(owner, segment);
    if (related === undefined) {
      throw invalidQuery(
        `"${shown(segments.join("."))}" cannot be expanded: ${owner.name} has no expandable field "${shown(segment)}"`,
      );
    }
    const next =
      options.resources && Object.hasOwn(options.resources, related) ? options.resources[related] : undefined;
    if (!next) return; // the deeper segment is checked by applyExpand, with the loader's spec
    owner = next;
  }
}

/** `path` or `path:f1,f2`; several selects of one path merge and a bare path (all fields) wins; parents come first. */
function parseExpand(entries: string[], spec: ResourceSpec, options: ParseOptions): Map<string, string[] | undefined> {
  const merged = new Map<string, string[] | undefined>();
  for (const entry of entries) {
    const colon = entry.indexOf(":");
    const path = colon < 0 ? entry : entry.slice(0, colon);
    const fields = colon < 0 ? undefined : entry.slice(colon + 1).split(",");
    checkExpandPath(entry, path.split("."), spec, options);
    if (fields?.some((f) => !NAME.test(f)))
      throw invalidQuery(`expand "${shown(entry)}" is not path or path:field1,field2`);
    if (!merged.has(path)) merged.set(path, fields);
    else {
      const before = merged.get(path);
      merged.set(path, before === undefined || fields === undefined ? undefined : [...new Set([...before, ...fields])]);
    }
  }
  const expand = new Map<string, string[] | undefined>();
  for (const [path, fields] of merged) {
    const parent = path.split(".")[0]!;
    // Expanding card.program expands card too (all its fields unless card was given a select of its own).
    if (parent !== path && !expand.has(parent)) expand.set(parent, merged.get(parent));
    if (!expand.has(path)) expand.set(path, fields);
  }
  return expand;
}

function parseCursor(raw: Record<string, unknown>, name: "before" | "after"): string | undefined {
  const value = single(raw, name);
  if (value === undefined) return undefined;
  if (!CURSOR.test(value)) throw invalidQuery(`${name} must be the id of an item, not "${shown(value)}"`);
  return value;
}

/** `page` (from 0, of `limit` items) as the number of items to skip. */
function parseOffset(text: string | undefined, limit: number, cursor: boolean): number {
  if (text === undefined) return 0;
  if (!/^\d{1,9}$/.test(text)) throw invalidQuery(`page must be a whole number from 0, not "${shown(text)}"`);
  if (cursor) throw invalidQuery("give page or a cursor (before, after), not both");
  const offset = Number(text) * limit;
  if (offset > MAX_PAGE_OFFSET) {
    throw invalidQuery(
      `page ${text} of ${limit} items starts past the first ${MAX_PAGE_OFFSET} items: page on from there with after`,
    );
  }
  return offset;
}

function parseCountTotal(text: string | undefined): boolean {
  if (text === undefined || text === "false") return false;
  if (text === "" || text === "true") return true;
  throw invalidQuery(`countTotal takes true or false (or no value), not "${shown(text)}"`);
}

/** Reads express's req.query into a validated ListQuery. Unknown parameters are ignored; every problem is a QueryError. */
export function parseListQuery(
  raw: Record<string, unknown>,
  spec: ResourceSpec,
  options: ParseOptions = {},
): ListQuery {
  if (typeof raw !== "object" || raw === null) throw invalidQuery("the query parameters must be an object");
  const filter = parseFilters(
    { filter: texts(raw, "filter"), or: texts(raw, "or"), nor: texts(raw, "nor"), and: texts(raw, "and") },
    spec,
  );
  const before = parseCursor(raw, "before");
  const after = parseCursor(raw, "after");
  if (before !== undefined && after !== undefined) throw invalidQuery("give before or after, not both");
  const limit = parseLimit(single(raw, "limit"), spec.maxLimit ?? DEFAULT_MAX_LIMIT);
  return {
    limit,
    sort: parseSort(words(texts(raw, "sort")), spec),
    select: parseSelect(words(texts(raw, "select")), spec),
    expand: parseExpand(words(texts(raw, "expand")), spec, options),
    filter,
    before,
    after,
    offset: parseOffset(single(raw, "page"), limit, before !== undefined || after !== undefined),
    countTotal: parseCountTotal(single(raw, "countTotal")),
  };
}
