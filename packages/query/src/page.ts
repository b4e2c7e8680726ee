import type { ListQuery } from "./types";

/**
 * The page in the requested order (a `before` page is read backwards) and hasMore as the interface defines it:
 * true when the page holds `limit` items.
 */
export function finishPage<T>(rows: T[], q: ListQuery): { data: T[]; metadata: { hasMore: boolean } } {
  const data = q.before ? [...rows].reverse() : rows;
  return { data, metadata: { hasMore: rows.length === q.limit } };
}
