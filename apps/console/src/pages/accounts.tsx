import { useQuery } from "@tanstack/react-query";
import { apiData } from "../api/http";
import { usePagedList } from "../api/list";
import type { Account, Balance, LedgerEntry } from "../api/types";
import type { Column } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { FilterBox } from "../components/filter-box";
import { RecordLink } from "../components/links";
import { PagedTable } from "../components/paged-table";
import { usePageTitle } from "../components/page-title";
import { Summary } from "../components/summary";
import { useUrlFilter } from "../components/url-filter";
import { dateTime, money } from "../format";

export const ACCOUNT_COLUMNS: Column<Account>[] = [
  { header: "Created", cell: (a) => dateTime(a.createdAt) },
  { header: "Account", cell: (a) => <RecordLink to="/accounts" id={a.id} /> },
  { header: "Name", cell: (a) => a.name },
  { header: "Type", cell: (a) => `${a.type}${a.isDefault ? " (default)" : ""}` },
  { header: "Currency", cell: (a) => a.currency },
  { header: "Status", cell: (a) => a.status },
];

function ledgerColumns(currency: string): Column<LedgerEntry>[] {
  return [
    { header: "Created", cell: (e) => dateTime(e.createdAt) },
    { header: "Kind", cell: (e) => `${e.kind} (${e.type})` },
    { header: "Description", cell: (e) => e.description },
    { header: "Amount", cell: (e) => money(e.amount, currency), numeric: true },
    { header: "Balance after", cell: (e) => money(e.balanceAfter, currency), numeric: true },
    {
      header: "Reference",
      cell: (e) =>
        e.reference.startsWith("c.auth.") ? <RecordLink to="/authorizations" id={e.reference} /> : e.reference,
    },
  ];
}

export function AccountsPage() {
  usePageTitle("Accounts");
  const [filter, setFilter] = useUrlFilter();
  const list = usePagedList<Account>("/accounts", { filter: filter || undefined });
  return (
    <>
      <h1>Accounts</h1>
      <FilterBox value={filter} onApply={setFilter} example="currency:NGN type:virtual" />
      <PagedTable list={list} caption="Accounts" columns={ACCOUNT_COLUMNS} empty="No accounts match." />
    </>
  );
}

/** An account: its balance (available, posted, held) and its ledger entries, newest first. */
export function AccountPage({ id }: { id: string }) {
  usePageTitle(`Account ${id}`);
  const path = `/accounts/${encodeURIComponent(id)}`;
  const account = useQuery({ queryKey: ["account", id], queryFn: () => apiData<Account>("GET", path) });
  const balance = useQuery({
    queryKey: ["account-balance", id],
    queryFn: () => apiData<Balance>("GET", `${path}/balance`),
  });
  const [filter, setFilter] = useUrlFilter();
  const entries = usePagedList<LedgerEntry>(`${path}/logs`, { filter: filter || undefined });
  const currency = balance.data?.currency ?? account.data?.currency ?? "NGN";
  return (
    <>
      <h1>
        Account <code>{id}</code>
      </h1>
      <ErrorMessage error={account.error ?? balance.error} />
      {account.data && balance.data && (
        <Summary
          fields={[
            ["Name", account.data.name],
            ["Type", account.data.type],
            ["Available", money(balance.data.available, currency)],
            ["Posted (ledger)", money(balance.data.ledger, currency)],
            ["Held", money(balance.data.held, currency)],
            [
              "Customer",
              account.data.customer ? <RecordLink key="c" to="/customers" id={account.data.customer} /> : "—",
            ],
          ]}
        />
      )}
      <h2>Ledger entries</h2>
      <FilterBox value={filter} onApply={setFilter} example="kind:capture" />
      <PagedTable
        list={entries}
        caption="Ledger entries"
        columns={ledgerColumns(currency)}
        empty="No ledger entries match."
      />
    </>
  );
}
