/** select and expand, applied to public records after the page was read and mapped by the service. */
import { invalidQuery } from "./errors";
import { relationOf, type ResourceSpec, type Scope } from "./resource";
import type { ListQuery } from "./types";

type Doc = Record<string, unknown>;

/** Always part of a record, whatever select or an expand sub-select says. */
export const ALWAYS_KEPT: readonly string[] = ["id", "object"];

function pick(record: Doc, keep: Iterable<string>): Doc {
  const wanted = new Set([...ALWAYS_KEPT, ...keep]);
  const out: Doc = {};
  for (const key of Object.keys(record)) if (wanted.has(key)) out[key] = record[key];
  return out;
}

/**
 * select on one public record: include mode keeps the listed fields (plus id, object and the relations being
 * expanded); exclude mode drops the listed fields (never id or object).
 */
export function applySelect(record: Doc, q: ListQuery): Doc {
  if (!q.select) return record;
  if (q.select.mode === "include") {
    const expanded = [...q.expand.keys()].filter((path) => !path.includes("."));
    return pick(record, [...q.select.fields, ...expanded]);
  }
  const out = { ...record };
  for (const field of q.select.fields) if (!ALWAYS_KEPT.includes(field)) delete out[field];
  return out;
}

/** Loads related records by id, in the caller's scope; ids it does not find stay ids in the response. */
export interface ExpandLoader {
  spec: ResourceSpec;
  load(ids: string[], scope: Scope): Promise<Map<string, Doc>>;
}

/** The part of an expand map below one relation: "card.program" under "card" → Map { program → fields }. */
function below(expand: Map<string, string[] | undefined>, relation: string): Map<string, string[] | undefined> {
  const children = new Map<string, string[] | undefined>();
  for (const [path, fields] of expand)
    if (path.startsWith(`${relation}.`)) children.set(path.slice(relation.length + 1), fields);
  return children;
}

async function expandLevel(
  records: Doc[],
  expand: Map<string, string[] | undefined>,
  spec: ResourceSpec,
  loaders: Record<string, ExpandLoader>,
  scope: Scope,
): Promise<Doc[]> {
  const out = records.map((r) => ({ ...r }));
  for (const [relation, fields] of expand) {
    if (relation.includes(".")) continue;
    const resource = relationOf(spec, relation);
    if (resource === undefined)
      throw invalidQuery(`"${relation}" cannot be expanded: ${spec.name} has no expandable field "${relation}"`);
    const loader = Object.hasOwn(loaders, resource) ? loaders[resource] : undefined;
    if (!loader)
      throw new Error(`applyExpand: no loader for resource "${resource}" (relation ${spec.name}.${relation})`);
    const ids = [...new Set(out.map((r) => r[relation]).filter((v): v is string => typeof v === "string"))];
    const loaded = ids.length > 0 ? await loader.load(ids, scope) : new Map<string, Doc>();
    const children = below(expand, relation);
    const entries = [...loaded];
    const related = await expandLevel(
      entries.map(([, r]) => r),
      children,
      loader.spec,
      loaders,
      scope,
    );
    const byId = new Map(entries.map(([id], i) => [id, related[i]!]));
    for (const record of out) {
      const found = typeof record[relation] === "string" ? byId.get(record[relation]) : undefined;
      if (found) record[relation] = fields ? pick(found, [...fields, ...children.keys()]) : found;
    }
  }
  return out;
}

/**
 * expand: replaces relation ids with the related records, to depth 2 (`card.program`); `path:f1,f2` keeps only
 * those fields of the related record (and its id, object and expanded relations). A relation below the first level
 * that the related resource does not declare is a QueryError; a declared relation without a loader is a programming
 * error (a plain Error).
 */
export async function applyExpand(
  records: Doc[],
  q: ListQuery,
  spec: ResourceSpec,
  loaders: Record<string, ExpandLoader>,
  scope: Scope,
): Promise<Doc[]> {
  if (q.expand.size === 0) return records;
  return expandLevel(records, q.expand, spec, loaders, scope);
}
