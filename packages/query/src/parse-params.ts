import { invalidQuery } from "./errors";
import { parseFilters } from "./parse-filter";
import type { ListQuery, ResourceSpec, Selection, SortKey } from "./types";

export const DEFAULT_LIMIT = 20;
export const DEFAULT_MAX_LIMIT = 100;
const MAX_EXPAND_DEPTH = 2;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CURSOR = /^[A-Za-z0-9._-]{1,100}$/;

/** A single-valued parameter: a string or absent; given twice or as an object it is an error. */
function single(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) throw invalidQuery(`parameter "${name}" was given more than once`);
  throw invalidQuery(`parameter "${name}" must be a plain value`);
}

/** A space-separated list parameter; given more than once, the values are joined. */
function list(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(" ");
  return single(raw, name);
}

const words = (text: string | undefined) => (text ?? "").split(/\s+/).filter(Boolean);

function parseLimit(text: string | undefined, max: number): number {
  if (text === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw invalidQuery(`limit must be a whole number from 1 to ${max}, not "${text}"`);
  }
  return Number(text);
}

function parseSort(text: string | undefined, spec: ResourceSpec): SortKey[] {
  const keys: SortKey[] = words(text).map((word) => {
    const desc = word.startsWith("-");
    const field = desc ? word.slice(1) : word;
    const fieldSpec = Object.hasOwn(spec.fields, field) ? spec.fields[field] : undefined;
    if (!fieldSpec) throw invalidQuery(`unknown sort field "${field}"`);
    if (!fieldSpec.sortable) throw invalidQuery(`field "${field}" cannot be sorted on`);
    return { field, column: fieldSpec.column, desc };
  });
  if (keys.length === 0) keys.push({ field: "createdAt", column: spec.createdColumn, desc: true });
  const last = keys.at(-1)!;
  if (last.column !== spec.idColumn) keys.push({ field: "id", column: spec.idColumn, desc: last.desc });
  return keys;
}

function parseSelect(text: string | undefined, spec: ResourceSpec): Selection | undefined {
  const entries = words(text);
  if (entries.length === 0) return undefined;
  const excludes = entries.filter((e) => e.startsWith("-"));
  if (excludes.length > 0 && excludes.length < entries.length) {
    throw invalidQuery("select takes either fields to include or -fields to exclude, not both");
  }
  const fields = entries.map((e) => (e.startsWith("-") ? e.slice(1) : e));
  for (const field of fields) {
    if (field.includes(".")) throw invalidQuery(`select "${field}" is deeper than allowed (depth 1)`);
    const known = (Object.hasOwn(spec.fields, field) && spec.fields[field]!.selectable !== false) || Object.hasOwn(spec.relations ?? {}, field) || field === "object";
    if (!known) throw invalidQuery(`unknown field "${field}" in select`);
  }
  return { mode: excludes.length ? "exclude" : "include", fields };
}

function parseExpand(text: string | undefined, spec: ResourceSpec): Map<string, string[] | undefined> {
  const expand = new Map<string, string[] | undefined>();
  for (const entry of words(text)) {
    const [path, subfields, extra] = entry.split(":");
    const segments = path!.split(".");
    if (extra !== undefined || segments.some((s) => !NAME.test(s))) throw invalidQuery(`expand "${entry}" is not path or path:field1,field2`);
    if (segments.length > MAX_EXPAND_DEPTH) throw invalidQuery(`expand "${path}" is deeper than allowed (depth ${MAX_EXPAND_DEPTH})`);
    if (!Object.hasOwn(spec.relations ?? {}, segments[0]!)) throw invalidQuery(`"${segments[0]}" cannot be expanded on ${spec.name}`);
    const fields = subfields === undefined ? undefined : subfields.split(",");
    if (fields?.some((f) => !NAME.test(f))) throw invalidQuery(`expand "${entry}" names an invalid field`);
    if (!expand.has(path!)) {
      expand.set(path!, fields);
    } else {
      // Several selects of one path merge; a bare path (all fields) wins over any subset.
      const before = expand.get(path!);
      expand.set(path!, before === undefined || fields === undefined ? undefined : [...new Set([...before, ...fields])]);
    }
  }
  // Expanding card.program expands card too (all its fields unless card was given a select of its own).
  for (const path of [...expand.keys()]) {
    const parent = path.split(".")[0]!;
    if (!expand.has(parent)) expand.set(parent, undefined);
  }
  return expand;
}

function parseCursor(raw: Record<string, unknown>, name: "before" | "after"): string | undefined {
  const value = single(raw, name);
  if (value === undefined) return undefined;
  if (!CURSOR.test(value)) throw invalidQuery(`${name} must be the id of an item, not "${value}"`);
  return value;
}

function parseCountTotal(text: string | undefined): boolean {
  if (text === undefined || text === "false") return false;
  if (text === "" || text === "true") return true;
  throw invalidQuery(`countTotal takes true or false, not "${text}"`);
}

/** Reads express's req.query into a validated ListQuery; every problem is a QueryError (400). */
export function parseListQuery(raw: Record<string, unknown>, spec: ResourceSpec): ListQuery {
  for (const name of ["filter", "or", "nor", "and", "select", "expand", "sort", "limit", "before", "after", "countTotal"]) {
    const value = raw[name];
    const texts = Array.isArray(value) ? value : [value];
    // Postgres text cannot hold NUL; refuse it here rather than fail in the database.
    if (texts.some((t) => typeof t === "string" && t.includes("\u0000"))) throw invalidQuery(`parameter "${name}" contains a NUL character`);
  }
  const before = parseCursor(raw, "before");
  const after = parseCursor(raw, "after");
  if (before && after) throw invalidQuery("give before or after, not both");
  return {
    limit: parseLimit(single(raw, "limit"), spec.maxLimit ?? DEFAULT_MAX_LIMIT),
    sort: parseSort(list(raw, "sort"), spec),
    select: parseSelect(list(raw, "select"), spec),
    expand: parseExpand(list(raw, "expand"), spec),
    filter: parseFilters({ filter: list(raw, "filter"), or: list(raw, "or"), nor: list(raw, "nor"), and: list(raw, "and") }, spec),
    before,
    after,
    countTotal: parseCountTotal(single(raw, "countTotal")),
  };
}
