import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { Link } from "wouter";
import { api, apiData, withQuery } from "../api/http";
import { useAuthorizationStream } from "../api/live";
import type { Authorization, EventDetail, EventRecord, LedgerEntry, Page, Transaction } from "../api/types";
import { Deliveries } from "../components/attempts";
import { ErrorMessage } from "../components/error-message";
import { RecordLink } from "../components/links";
import { usePageTitle } from "../components/page-title";
import { StatusBadge } from "../components/status-badge";
import { Summary } from "../components/summary";
import { dateTime, money, preciseTime } from "../format";
import { buildTimeline, type TimelineEntry } from "../timeline";

/** An authorization's events are few (a request, updates, closed, a transaction): one page holds them. */
const TIMELINE_LIMIT = 50;

interface TimelineData {
  authorization: Authorization;
  events: EventDetail[];
  ledger: LedgerEntry[];
  transactions: Transaction[];
}

/** Everything the public API knows about one authorization, read as any client would. */
async function loadTimeline(id: string): Promise<TimelineData> {
  const authorization = await apiData<Authorization>("GET", `/card-authorizations/${encodeURIComponent(id)}`);
  const [transactions, ledger] = await Promise.all([
    api<Page<Transaction>>(
      "GET",
      withQuery("/card-transactions", { filter: `authorization:${id}`, limit: TIMELINE_LIMIT }),
    ),
    api<Page<LedgerEntry>>(
      "GET",
      withQuery(`/accounts/${encodeURIComponent(authorization.account)}/logs`, {
        filter: `reference:${id}`,
        sort: "createdAt",
        limit: TIMELINE_LIMIT,
      }),
    ),
  ]);
  const resources = [id, ...transactions.data.map((t) => t.id)];
  const events = await api<Page<EventRecord>>(
    "GET",
    withQuery("/events", { filter: `resource|in|${resources.join(",")}`, sort: "createdAt", limit: TIMELINE_LIMIT }),
  );
  const details = await Promise.all(
    events.data.map((e) => apiData<EventDetail>("GET", `/events/${encodeURIComponent(e.id)}`)),
  );
  return { authorization, events: details, ledger: ledger.data, transactions: transactions.data };
}

/** The closed event, the transaction and their deliveries follow a decision by a moment: look again until then. */
const RECENT_MS = 15_000;

const unsettled = (data: TimelineData | undefined) =>
  !data ||
  data.authorization.status === "pending" ||
  Date.now() - new Date(data.authorization.updatedAt).getTime() < RECENT_MS ||
  data.events.some((e) => e.deliveries.some((d) => d.status === "pending" || d.status === "delivering"));

function AuthorizationSummary({ authorization: a }: { authorization: Authorization }) {
  return (
    <Summary
      fields={[
        ["Status", <StatusBadge key="s" status={a.status} />],
        ["Type", a.type],
        ["Amount", money(a.amount, a.currency)],
        ["Fees", money(a.fees, a.currency)],
        ["Card", <RecordLink key="c" to="/cards" id={a.card} />],
        ["Customer", <RecordLink key="cu" to="/customers" id={a.customer} />],
        ["Account", <RecordLink key="ac" to="/accounts" id={a.account} />],
        ["Channel", a.channel],
        ["Decided by", a.decisionType ?? "—"],
        ["Decline reason", a.declineReason ?? "—"],
        ["Created", dateTime(a.createdAt)],
      ]}
    />
  );
}

function Entry({ entry, currency }: { entry: TimelineEntry; currency: string }) {
  return (
    <li className={`timeline-entry ${entry.tone ? `tone-${entry.tone}` : ""}`}>
      <h3>
        {entry.title}
        {entry.event && (
          <>
            {" "}
            <StatusBadge status={entry.event.status} />
          </>
        )}
      </h3>
      <p className="when">{preciseTime(entry.at)}</p>
      {entry.detail && <p>{entry.detail}</p>}
      {entry.event && (
        <>
          <p>
            Event <Link href={`/events/${encodeURIComponent(entry.event.id)}`}>{entry.event.id}</Link> (
            <code>{entry.event.event}</code>)
          </p>
          <Deliveries deliveries={entry.event.deliveries} label={entry.event.event} />
        </>
      )}
      {entry.ledgerEntry && (
        <p>
          {money(entry.ledgerEntry.amount, currency)} on <code>{entry.ledgerEntry.account}</code>
          {entry.ledgerEntry.balanceAfter !== undefined && (
            <>, balance after {money(entry.ledgerEntry.balanceAfter, currency)}</>
          )}
        </p>
      )}
    </li>
  );
}

/** An authorization's page: its summary and its timeline, refreshed while anything about it is still under way. */
export function AuthorizationPage({ id }: { id: string }) {
  usePageTitle(`Authorization ${id}`);
  const queryClient = useQueryClient();
  const timeline = useQuery({
    queryKey: ["authorization-timeline", id],
    queryFn: () => loadTimeline(id),
    refetchInterval: (query) => (unsettled(query.state.data) ? 2_000 : false),
  });
  const changed = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ["authorization-timeline", id] }),
    [queryClient, id],
  );
  useAuthorizationStream(`id:${id}`, changed);
  const data = timeline.data;
  return (
    <>
      <h1>
        Authorization <code>{id}</code>
      </h1>
      <ErrorMessage error={timeline.error} />
      {!data ? (
        !timeline.error && <p role="status">Loading…</p>
      ) : (
        <>
          <AuthorizationSummary authorization={data.authorization} />
          <h2>Timeline</h2>
          <ol className="timeline">
            {buildTimeline(data.authorization, data.events, data.ledger, data.transactions).map((entry, index) => (
              <Entry key={`${entry.kind}-${index}`} entry={entry} currency={data.authorization.currency} />
            ))}
          </ol>
        </>
      )}
    </>
  );
}
