import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { apiData } from "../api/http";
import { usePagedList } from "../api/list";
import { can } from "../api/session";
import type { EventDetail, EventRecord, Session } from "../api/types";
import { Deliveries } from "../components/attempts";
import type { Column } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { FilterBox } from "../components/filter-box";
import { RecordLink } from "../components/links";
import { PagedTable } from "../components/paged-table";
import { usePageTitle } from "../components/page-title";
import { StatusBadge } from "../components/status-badge";
import { Summary } from "../components/summary";
import { useUrlFilter } from "../components/url-filter";
import { useWrite } from "../components/use-write";
import { dateTime, pretty } from "../format";

/** Where a resource id leads in the console, by its prefix. */
function resourceLink(id: string) {
  if (id.startsWith("c.auth.")) return <RecordLink to="/authorizations" id={id} />;
  if (id.startsWith("cus.")) return <RecordLink to="/customers" id={id} />;
  if (id.startsWith("ac.")) return <RecordLink to="/accounts" id={id} />;
  return <code>{id}</code>;
}

const EVENT_COLUMNS: Column<EventRecord>[] = [
  { header: "Created", cell: (e) => dateTime(e.createdAt) },
  { header: "Event", cell: (e) => <RecordLink to="/events" id={e.id} /> },
  { header: "Kind", cell: (e) => <code>{e.event}</code> },
  { header: "Resource", cell: (e) => resourceLink(e.resource) },
  { header: "Delivery", cell: (e) => <StatusBadge status={e.status} /> },
];

export function EventsPage() {
  usePageTitle("Events");
  const [filter, setFilter] = useUrlFilter();
  const list = usePagedList<EventRecord>("/events", { filter: filter || undefined }, 10_000);
  return (
    <>
      <h1>Events</h1>
      <FilterBox value={filter} onApply={setFilter} example="status:failed event:card.authorization.closed" />
      <PagedTable list={list} caption="Events" columns={EVENT_COLUMNS} empty="No events match." />
    </>
  );
}

const underWay = (event: EventDetail | undefined) =>
  event?.deliveries.some((d) => d.status === "pending" || d.status === "delivering") ?? false;

/** An event: where it went, every delivery attempt (status, latency, answer), its payload, and Resend. */
export function EventPage({ id, session }: { id: string; session: Session }) {
  usePageTitle(`Event ${id}`);
  const path = `/events/${encodeURIComponent(id)}`;
  const event = useQuery({
    queryKey: ["event", id],
    queryFn: () => apiData<EventDetail>("GET", path),
    refetchInterval: (query) => (underWay(query.state.data) ? 1_500 : false),
  });
  const resend = useWrite<void>(
    () => ({ method: "POST", path: `${path}/retry`, body: {} }),
    [["event", id], ["/events"]],
  );
  const e = event.data;
  return (
    <>
      <h1>
        Event <code>{id}</code>
      </h1>
      <ErrorMessage error={event.error} />
      {e && (
        <>
          <Summary
            fields={[
              ["Kind", <code key="k">{e.event}</code>],
              ["Delivery", <StatusBadge key="s" status={e.status} />],
              ["Resource", resourceLink(e.resource)],
              ["Created", dateTime(e.createdAt)],
            ]}
          />
          {can(session, "write") && (
            <p>
              <button type="button" onClick={() => resend.mutate()} disabled={resend.isPending}>
                Resend event
              </button>
            </p>
          )}
          {resend.isSuccess && <p role="status">Resent: a new attempt is under way.</p>}
          <ErrorMessage error={resend.error} />
          <h2>Deliveries</h2>
          <Deliveries deliveries={e.deliveries} label={e.event} />
          <h2>Payload</h2>
          <pre className="payload" tabIndex={0} aria-label="Event payload">
            {pretty(e.payload)}
          </pre>
          {e.resource.startsWith("c.auth.") && (
            <p>
              <Link href={`/authorizations/${encodeURIComponent(e.resource)}`}>The authorization's timeline</Link>
            </p>
          )}
        </>
      )}
    </>
  );
}
