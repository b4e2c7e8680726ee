import type { Queryable } from "@cardhold/db";
import type { RouteCandidate } from "../domain/routing";
import { webhooksOf } from "./webhooks.store";

export interface RoutingTables {
  /** A business's webhooks in one mode, read at most once per `ttlMs` unless a change was applied here since. */
  of(db: Queryable, businessId: string, mode: string): Promise<RouteCandidate[]>;
  /** A webhook change committed in this process: read every table afresh. */
  invalidate(): void;
}

/**
 * Every event is routed by its business's webhooks, which change rarely: reading them for each batch was one
 * statement per event. Changes consumed by this process apply at once; one consumed by another dispatcher instance
 * (its partition of webhooks.v1) applies here within `ttlMs`.
 */
export function createRoutingTables(ttlMs = 1_000): RoutingTables {
  const tables = new Map<string, { table: RouteCandidate[]; readAt: number }>();
  let generation = 0;
  return {
    async of(db, businessId, mode) {
      const key = `${businessId}:${mode}`;
      const cached = tables.get(key);
      if (cached && Date.now() - cached.readAt < ttlMs) return cached.table;
      const readIn = generation;
      const readAt = Date.now();
      const table = await webhooksOf(db, businessId, mode);
      if (readIn === generation) tables.set(key, { table, readAt });
      return table;
    },
    invalidate() {
      generation += 1;
      tables.clear();
    },
  };
}
