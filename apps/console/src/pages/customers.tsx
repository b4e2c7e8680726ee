import { useQuery } from "@tanstack/react-query";
import { apiData } from "../api/http";
import { usePagedList } from "../api/list";
import type { Account, Card, Customer } from "../api/types";
import type { Column } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { FilterBox } from "../components/filter-box";
import { RecordLink } from "../components/links";
import { PagedTable } from "../components/paged-table";
import { usePageTitle } from "../components/page-title";
import { Summary } from "../components/summary";
import { useUrlFilter } from "../components/url-filter";
import { dateTime } from "../format";
import { ACCOUNT_COLUMNS } from "./accounts";
import { CARD_COLUMNS } from "./cards";

const CUSTOMER_COLUMNS: Column<Customer>[] = [
  { header: "Created", cell: (c) => dateTime(c.createdAt) },
  { header: "Customer", cell: (c) => <RecordLink to="/customers" id={c.id} /> },
  { header: "Name", cell: (c) => c.name },
  { header: "Reference", cell: (c) => c.reference },
  { header: "Type", cell: (c) => c.type },
  { header: "Verifications", cell: (c) => c.verifications.map((v) => v.type).join(", ") },
];

export function CustomersPage() {
  usePageTitle("Customers");
  const [filter, setFilter] = useUrlFilter();
  const list = usePagedList<Customer>("/customers", { filter: filter || undefined });
  return (
    <>
      <h1>Customers</h1>
      <FilterBox value={filter} onApply={setFilter} example="type:business name~acme" />
      <PagedTable list={list} caption="Customers" columns={CUSTOMER_COLUMNS} empty="No customers match." />
    </>
  );
}

/** A customer: its details, and its cards and accounts (each a paged list of its own). */
export function CustomerPage({ id }: { id: string }) {
  usePageTitle(`Customer ${id}`);
  const customer = useQuery({
    queryKey: ["customer", id],
    queryFn: () => apiData<Customer>("GET", `/customers/${encodeURIComponent(id)}`),
  });
  const cards = usePagedList<Card>("/cards", { filter: `customer:${id}` });
  const accounts = usePagedList<Account>("/accounts", { filter: `customer:${id}` });
  const c = customer.data;
  return (
    <>
      <h1>
        Customer <code>{id}</code>
      </h1>
      <ErrorMessage error={customer.error} />
      {c && (
        <Summary
          fields={[
            ["Name", c.name],
            ["Reference", c.reference],
            ["Type", c.type],
            ["Status", c.status],
            ["Verifications", c.verifications.map((v) => `${v.type} (${v.status})`).join(", ")],
            ["Created", dateTime(c.createdAt)],
          ]}
        />
      )}
      <h2>Cards</h2>
      <PagedTable list={cards} caption="The customer's cards" columns={CARD_COLUMNS} empty="No cards." />
      <h2>Accounts</h2>
      <PagedTable list={accounts} caption="The customer's accounts" columns={ACCOUNT_COLUMNS} empty="No accounts." />
    </>
  );
}
