import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, withQuery } from "./http";
import type { Page } from "./types";

export const PAGE_SIZE = 20;

export interface ListParams {
  filter?: string;
  sort?: string;
  limit?: number;
}

/**
 * One page of a list endpoint at a time, walked with the API's cursors: Next asks for the items `after` the last one
 * shown, Previous goes back to the cursor before. Changing the path or the parameters starts again at the first page.
 */
export function usePagedList<T extends { id: string }>(path: string, params: ListParams = {}, refetchMs?: number) {
  const listKey = JSON.stringify([path, params]);
  const [walk, setWalk] = useState({ listKey, cursors: [] as string[] });
  const cursors = walk.listKey === listKey ? walk.cursors : [];
  const after = cursors.at(-1);
  const query = useQuery({
    queryKey: [path, params, after ?? null],
    queryFn: () => api<Page<T>>("GET", withQuery(path, { limit: PAGE_SIZE, ...params, after })),
    placeholderData: keepPreviousData,
    refetchInterval: refetchMs,
  });
  const rows = query.data?.data ?? [];
  const last = rows.at(-1);
  return {
    query,
    rows,
    pageNumber: cursors.length + 1,
    isFirstPage: cursors.length === 0,
    hasNext: Boolean(query.data?.metadata.hasMore && last),
    hasPrevious: cursors.length > 0,
    next: () => last && setWalk({ listKey, cursors: [...cursors, last.id] }),
    previous: () => setWalk({ listKey, cursors: cursors.slice(0, -1) }),
  };
}

export type PagedList<T extends { id: string }> = ReturnType<typeof usePagedList<T>>;
