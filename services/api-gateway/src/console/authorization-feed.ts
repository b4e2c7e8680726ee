/**
 * What a live stream of card authorizations has sent, and the list queries that find what is new or changed since:
 * the client's filter plus `updatedAt|gted|<cursor>`, oldest change first. Pure: the reading is the caller's.
 *
 * The cursor is the latest updatedAt seen, read back from the data (never this gateway's clock, which may differ
 * from the engine's). Each poll starts LOOKBACK_MS before it, so a change committed a little after a later one is
 * still found; what was already sent with the same updatedAt is not sent again.
 */
export const LOOKBACK_MS = 2_000;
export const PAGE_LIMIT = 100;
/** Pages read in one poll at most: a backlog beyond this is read on the next poll. */
export const MAX_PAGES_PER_POLL = 10;
/** The most (id → updatedAt) entries remembered; the oldest go first. */
const MAX_SEEN = 5_000;

export interface AuthorizationRecord {
  id: string;
  updatedAt: string;
  [field: string]: unknown;
}

export interface ListPage {
  data: AuthorizationRecord[];
  hasMore: boolean;
}

/** Reads one page of GET /card-authorizations for the query string given (already encoded). */
export type ReadPage = (query: string) => Promise<ListPage>;

const toQuery = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();

const joinFilters = (...entries: (string | undefined)[]) =>
  entries.filter((e) => e !== undefined && e.trim() !== "").join(" ") || undefined;

export function createAuthorizationFeed(filter: string | undefined) {
  /** The latest updatedAt seen, in ms. */
  let cursor: number | undefined;
  const seen = new Map<string, number>();

  /** Remembers a record; whether it is new or changed since last seen. */
  const remember = (record: AuthorizationRecord): boolean => {
    const at = Date.parse(record.updatedAt);
    if (Number.isNaN(at) || seen.get(record.id) === at) return false;
    seen.delete(record.id);
    seen.set(record.id, at);
    cursor = Math.max(cursor ?? at, at);
    return true;
  };

  const forget = () => {
    if (cursor === undefined) return;
    for (const [id, at] of seen) if (at < cursor - LOOKBACK_MS || seen.size > MAX_SEEN) seen.delete(id);
  };

  const since = (at: number | undefined) =>
    toQuery({
      filter: joinFilters(filter, at === undefined ? undefined : `updatedAt|gted|${new Date(at).toISOString()}`),
      sort: "updatedAt",
      limit: String(PAGE_LIMIT),
    });

  return {
    /** The query of the newest matching authorizations, read when the stream opens: they are not news. */
    openingQuery: () => toQuery({ filter: joinFilters(filter), sort: "-updatedAt", limit: String(PAGE_LIMIT) }),

    open(page: ListPage): void {
      for (const record of page.data) remember(record);
    },

    /** Reads what changed since the last poll, oldest change first, and returns what was not sent yet. */
    async poll(read: ReadPage): Promise<AuthorizationRecord[]> {
      const fresh: AuthorizationRecord[] = [];
      let from = cursor === undefined ? undefined : cursor - LOOKBACK_MS;
      for (let pages = 0; pages < MAX_PAGES_PER_POLL; pages++) {
        const page = await read(since(from));
        for (const record of page.data) if (remember(record)) fresh.push(record);
        const last = page.data.at(-1);
        if (!page.hasMore || !last) break;
        const next = Date.parse(last.updatedAt);
        // A full page of one instant: the next would be the same page.
        if (from !== undefined && next <= from) break;
        from = next;
      }
      forget();
      return fresh;
    },
  };
}

export type AuthorizationFeed = ReturnType<typeof createAuthorizationFeed>;
