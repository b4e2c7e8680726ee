import type { Authorization } from "./api/types";

/**
 * The first page of authorizations with what the live stream brought since it loaded: new ones on top (newest
 * first), changed ones replaced in place. An item the page already holds in a newer version stays as it is.
 */
export function mergeLive(page: Authorization[], live: Authorization[]): Authorization[] {
  const latest = new Map<string, Authorization>();
  for (const item of live) {
    const seen = latest.get(item.id);
    if (!seen || seen.updatedAt <= item.updatedAt) latest.set(item.id, item);
  }
  const onPage = new Set(page.map((item) => item.id));
  const fresh = [...latest.values()]
    .filter((item) => !onPage.has(item.id))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  const updated = page.map((item) => {
    const newer = latest.get(item.id);
    return newer && newer.updatedAt >= item.updatedAt ? newer : item;
  });
  return [...fresh, ...updated];
}
