import { invalidQuery } from "./errors";
import type { ListQuery, ResourceSpec, Scope } from "./types";

type Record_ = Record<string, unknown>;

const ALWAYS_KEPT = ["id", "object"];

function pick(record: Record_, fields: string[]): Record_ {
  const out: Record_ = {};
  for (const key of Object.keys(record)) if (ALWAYS_KEPT.includes(key) || fields.includes(key)) out[key] = record[key];
  return out;
}

/** select: keep only the listed fields (id and object always stay) or drop the -listed ones. */
export function applySelect(record: Record_, q: ListQuery): Record_ {
  if (!q.select) return record;
  if (q.select.mode === "include") return pick(record, q.select.fields);
  const out = { ...record };
  for (const field of q.select.fields) if (!ALWAYS_KEPT.includes(field)) delete out[field];
  return out;
}

export interface ExpandLoader {
  spec: ResourceSpec;
  load(ids: string[], scope: Scope): Promise<Map<string, Record_>>;
}

/** Children of one expand level: "card.program" under "card" → Map { program → fields }. */
function childrenOf(expand: Map<string, string[] | undefined>, prefix: string): Map<string, string[] | undefined> {
  const children = new Map<string, string[] | undefined>();
  for (const [path, fields] of expand) if (path.startsWith(`${prefix}.`)) children.set(path.slice(prefix.length + 1), fields);
  return children;
}

async function expandLevel(
  records: Record_[],
  expand: Map<string, string[] | undefined>,
  spec: ResourceSpec,
  loaders: Record<string, ExpandLoader>,
  scope: Scope,
): Promise<Record_[]> {
  const out = records.map((r) => ({ ...r }));
  for (const [relation, fields] of expand) {
    if (relation.includes(".")) continue;
    const resource = spec.relations?.[relation];
    const loader = resource === undefined ? undefined : loaders[resource];
    if (!loader) throw invalidQuery(`"${relation}" cannot be expanded on ${spec.name}`);
    const ids = [...new Set(out.map((r) => r[relation]).filter((v): v is string => typeof v === "string"))];
    const loaded = ids.length ? await loader.load(ids, scope) : new Map<string, Record_>();
    const children = childrenOf(expand, relation);
    const related = await expandLevel([...loaded.values()], children, loader.spec, loaders, scope);
    const byId = new Map(related.map((r) => [r.id as string, r]));
    for (const record of out) {
      const found = typeof record[relation] === "string" ? byId.get(record[relation] as string) : undefined;
      if (found) record[relation] = fields ? pick(found, [...fields, ...children.keys()]) : found;
    }
  }
  return out;
}

/** expand: replaces relation ids with the related records (depth 2, `path:f1,f2` keeps only those fields). */
export function applyExpand(
  records: Record_[],
  q: ListQuery,
  spec: ResourceSpec,
  loaders: Record<string, ExpandLoader>,
  scope: Scope,
): Promise<Record_[]> {
  if (q.expand.size === 0) return Promise.resolve(records);
  return expandLevel(records, q.expand, spec, loaders, scope);
}
