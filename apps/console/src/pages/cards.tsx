import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { apiData, withQuery } from "../api/http";
import { usePagedList } from "../api/list";
import { can } from "../api/session";
import type { Card, CardSecrets, Session } from "../api/types";
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
import { dateTime } from "../format";
import { CardControlsForm } from "./card-controls";

export const CARD_COLUMNS: Column<Card>[] = [
  { header: "Created", cell: (c) => dateTime(c.createdAt) },
  { header: "Card", cell: (c) => <RecordLink to="/cards" id={c.id} /> },
  { header: "Number", cell: (c) => `•••• ${c.details.last4}` },
  { header: "Holder", cell: (c) => c.details.cardHolderName },
  { header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
  { header: "Network", cell: (c) => `${c.network} ${c.type}` },
  { header: "Customer", cell: (c) => <RecordLink to="/customers" id={c.customer} /> },
];

const SECRETS_SHOWN_MS = 60_000;

export function CardsPage() {
  usePageTitle("Cards");
  const [filter, setFilter] = useUrlFilter();
  const list = usePagedList<Card>("/cards", { filter: filter || undefined });
  return (
    <>
      <h1>Cards</h1>
      <FilterBox value={filter} onApply={setFilter} example="status:active network:verve" />
      <PagedTable list={list} caption="Cards" columns={CARD_COLUMNS} empty="No cards match." />
    </>
  );
}

/**
 * The card's number, CVV and expiry, fetched only when Reveal is pressed, kept in this component only (never in
 * the query cache) and hidden again after a minute, on Hide, or when the page is left.
 */
function Secrets({ cardId }: { cardId: string }) {
  const [secrets, setSecrets] = useState<CardSecrets>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!secrets) return;
    const timer = setTimeout(() => setSecrets(undefined), SECRETS_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [secrets]);
  const reveal = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setSecrets(await apiData<CardSecrets>("GET", `/cards/${encodeURIComponent(cardId)}/secrets`));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="secrets-heading">
      <h2 id="secrets-heading">Card number and CVV</h2>
      {secrets ? (
        <>
          <Summary
            fields={[
              ["Card number", <code key="pan">{secrets.pan}</code>],
              ["CVV", <code key="cvv">{secrets.cvv}</code>],
              ["Expiry", secrets.expiry],
            ]}
          />
          <button type="button" onClick={() => setSecrets(undefined)}>
            Hide card number
          </button>
        </>
      ) : (
        <button type="button" onClick={reveal} disabled={busy}>
          Reveal card number
        </button>
      )}
      <ErrorMessage error={error} />
    </section>
  );
}

function FreezeButton({ card }: { card: Card }) {
  const action = card.status === "blocked" ? "unblock" : "block";
  const write = useWrite<void>(
    () => ({ method: "POST", path: `/cards/${encodeURIComponent(card.id)}/${action}` }),
    [["card", card.id], ["/cards"]],
  );
  if (card.status !== "active" && card.status !== "blocked") return null;
  return (
    <>
      <button type="button" onClick={() => write.mutate()} disabled={write.isPending}>
        {action === "block" ? "Freeze card" : "Unfreeze card"}
      </button>
      <ErrorMessage error={write.error} />
    </>
  );
}

export function CardPage({ id, session }: { id: string; session: Session }) {
  usePageTitle(`Card ${id}`);
  const card = useQuery({
    queryKey: ["card", id],
    queryFn: () => apiData<Card>("GET", `/cards/${encodeURIComponent(id)}`),
  });
  const c = card.data;
  const canWrite = can(session, "write");
  return (
    <>
      <h1>
        Card <code>{id}</code>
      </h1>
      <ErrorMessage error={card.error} />
      {c && (
        <>
          <Summary
            fields={[
              ["Status", <StatusBadge key="s" status={c.status} />],
              ["Number", `•••• ${c.details.last4}`],
              ["Holder", c.details.cardHolderName],
              ["Expiry", c.details.expiry],
              ["Network", `${c.network} ${c.type}, ${c.currency}`],
              ["Customer", <RecordLink key="cu" to="/customers" id={c.customer} />],
              ["Funding account", <RecordLink key="ac" to="/accounts" id={c.fundingSource} />],
              ["Reference", c.reference],
            ]}
          />
          <p>
            <Link href={withQuery("/authorizations", { filter: `card:${c.id}` })}>This card's authorizations</Link>
          </p>
          {canWrite && <FreezeButton card={c} />}
          {can(session, "card-secrets") && <Secrets cardId={c.id} />}
          <CardControlsForm card={c} canWrite={canWrite} />
        </>
      )}
    </>
  );
}
