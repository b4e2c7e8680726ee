import { useCallback, useState } from "react";
import { useAuthorizationStream, type LiveStatus } from "../api/live";
import { usePagedList } from "../api/list";
import type { Authorization } from "../api/types";
import type { Column } from "../components/data-table";
import { FilterBox } from "../components/filter-box";
import { RecordLink } from "../components/links";
import { PagedTable } from "../components/paged-table";
import { usePageTitle } from "../components/page-title";
import { StatusBadge } from "../components/status-badge";
import { useUrlFilter } from "../components/url-filter";
import { dateTime, money } from "../format";
import { mergeLive } from "../live-merge";

export const AUTHORIZATION_COLUMNS: Column<Authorization>[] = [
  { header: "Created", cell: (a) => dateTime(a.createdAt) },
  { header: "Authorization", cell: (a) => <RecordLink to="/authorizations" id={a.id} /> },
  { header: "Card", cell: (a) => <RecordLink to="/cards" id={a.card} /> },
  { header: "Type", cell: (a) => a.type },
  { header: "Amount", cell: (a) => money(a.amount, a.currency), numeric: true },
  { header: "Status", cell: (a) => <StatusBadge status={a.status} /> },
  { header: "Decided by", cell: (a) => a.decisionType ?? "—" },
  { header: "Reason", cell: (a) => a.declineReason ?? a.statusReason ?? "" },
];

const LIVE_TEXT: Record<LiveStatus, string> = {
  connecting: "Connecting to live updates…",
  live: "Live: new authorizations appear here as they happen",
  reconnecting: "Live updates interrupted; reconnecting…",
};

/** Authorizations matching `filter`, newest first; the first page takes in new and changed ones live (server-sent events). */
export function LiveAuthorizationTable({ filter, caption }: { filter: string; caption: string }) {
  const list = usePagedList<Authorization>("/card-authorizations", { filter: filter || undefined });
  const [live, setLive] = useState<{ filter: string; items: Authorization[] }>({ filter, items: [] });
  const liveItems = live.filter === filter ? live.items : [];
  const arrived = useCallback(
    (authorization: Authorization) =>
      setLive((current) => ({
        filter,
        items: [...(current.filter === filter ? current.items : []), authorization].slice(-200),
      })),
    [filter],
  );
  const status = useAuthorizationStream(filter || undefined, arrived);
  const onPage = new Set(list.rows.map((a) => a.id));
  const rows = mergeLive(list.rows, list.isFirstPage ? liveItems : liveItems.filter((a) => onPage.has(a.id)));
  const fresh = new Set(liveItems.map((a) => a.id));
  return (
    <>
      <p role="status" className={`live live-${status}`}>
        {LIVE_TEXT[status]}
      </p>
      <PagedTable
        list={list}
        rows={rows}
        caption={caption}
        columns={AUTHORIZATION_COLUMNS}
        rowClass={(a) => (fresh.has(a.id) ? "row-new" : undefined)}
        empty="No authorizations match."
      />
    </>
  );
}

export function AuthorizationsPage() {
  usePageTitle("Authorizations");
  const [filter, setFilter] = useUrlFilter();
  return (
    <>
      <h1>Authorizations</h1>
      <FilterBox value={filter} onApply={setFilter} example="status:declined amount>5000 card:c.…" />
      <LiveAuthorizationTable filter={filter} caption="Card authorizations" />
    </>
  );
}
