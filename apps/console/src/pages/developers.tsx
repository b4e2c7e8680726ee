import { useId, useState, type FormEvent } from "react";
import { unwrap } from "../api/http";
import { usePagedList } from "../api/list";
import type { ApiKey, Permission, RequestLog, Session } from "../api/types";
import type { Column } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { FilterBox } from "../components/filter-box";
import { PagedTable } from "../components/paged-table";
import { usePageTitle } from "../components/page-title";
import { StatusBadge } from "../components/status-badge";
import { useWrite } from "../components/use-write";
import { dateTime, milliseconds, pretty } from "../format";

const PERMISSIONS: { value: Permission; label: string }[] = [
  { value: "read", label: "read: every GET except secrets" },
  { value: "write", label: "write: every other method" },
  { value: "card-secrets", label: "card-secrets: card numbers and CVVs" },
  { value: "webhook-secrets", label: "webhook-secrets: webhook signing keys" },
];

/** The key list's queries (usePagedList keys them by path first). */
const KEYS_QUERY = ["/api-keys"];

function CreateKey() {
  const id = useId();
  const [secret, setSecret] = useState<string>();
  const create = useWrite<{ name: string; permissions: string[] }, unknown>(
    (body) => ({ method: "POST", path: "/api-keys", body }),
    [KEYS_QUERY],
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    const form = new FormData(target);
    setSecret(undefined);
    create.mutate(
      { name: String(form.get("name") ?? ""), permissions: form.getAll("permissions").map(String) },
      {
        onSuccess: (answer) => {
          setSecret(unwrap<{ secret?: string }>(answer)?.secret);
          target.reset();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-heading`} className="panel">
      <h3 id={`${id}-heading`}>Create a restricted key</h3>
      <p className="field">
        <label htmlFor={`${id}-name`}>Key name</label>
        <input id={`${id}-name`} name="name" required maxLength={100} />
      </p>
      <fieldset className="checkboxes">
        <legend>Permissions</legend>
        {PERMISSIONS.map((permission) => (
          <label key={permission.value}>
            <input type="checkbox" name="permissions" value={permission.value} />
            {permission.label}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={create.isPending}>
        Create key
      </button>
      {secret && (
        <div role="status" className="notice">
          <p>The new key's secret, shown this once; copy it now:</p>
          <p>
            <code className="secret" aria-label="New secret key">
              {secret}
            </code>
          </p>
        </div>
      )}
      <ErrorMessage error={create.error} />
    </form>
  );
}

function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useWrite<void>(
    () => ({ method: "DELETE", path: `/api-keys/${encodeURIComponent(apiKey.id)}` }),
    [KEYS_QUERY],
  );
  const name = apiKey.name ?? apiKey.prefix;
  if (apiKey.revokedAt) return null;
  return confirming ? (
    <span className="actions">
      <button type="button" className="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
        Confirm revoking {name}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep {name}
      </button>
      <ErrorMessage error={revoke.error} />
    </span>
  ) : (
    <button type="button" onClick={() => setConfirming(true)} aria-label={`Revoke ${name}`}>
      Revoke
    </button>
  );
}

const KEY_COLUMNS: Column<ApiKey>[] = [
  { header: "Name", cell: (k) => k.name ?? "—" },
  { header: "Key", cell: (k) => <code>{`${k.prefix}…${k.last4 ?? ""}`}</code> },
  { header: "Permissions", cell: (k) => (k.permissions === null ? "full access" : k.permissions.join(", ")) },
  { header: "Created", cell: (k) => dateTime(k.createdAt) },
  { header: "Last used", cell: (k) => (k.lastUsedAt ? dateTime(k.lastUsedAt) : "never") },
  { header: "Status", cell: (k) => <StatusBadge status={k.revokedAt ? "revoked" : "active"} /> },
  { header: "Actions", cell: (k) => <RevokeButton apiKey={k} /> },
];

function ApiKeys({ session }: { session: Session }) {
  const fullAccess = session.permissions === null;
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys ({session.mode} mode)</h2>
      {fullAccess ? <KeyList /> : <p>Only a full-access key manages keys; this session's key is restricted.</p>}
    </section>
  );
}

function KeyList() {
  const keys = usePagedList<ApiKey>("/api-keys");
  return (
    <>
      <PagedTable list={keys} caption="API keys" columns={KEY_COLUMNS} empty="No keys." />
      <CreateKey />
    </>
  );
}

const LOG_COLUMNS: Column<RequestLog>[] = [
  { header: "At", cell: (l) => dateTime(l.createdAt) },
  { header: "Request", cell: (l) => <code>{`${l.method} ${l.path}`}</code> },
  { header: "Status", cell: (l) => l.status, numeric: true },
  { header: "Duration", cell: (l) => milliseconds(l.duration), numeric: true },
  {
    header: "Bodies (secrets redacted)",
    cell: (l) => (
      <details>
        <summary>Show bodies</summary>
        <p>Request</p>
        <pre className="payload">{pretty(l.requestBody) || "(none)"}</pre>
        <p>Answer</p>
        <pre className="payload">{pretty(l.responseBody) || "(none)"}</pre>
      </details>
    ),
  },
];

function RequestLogs() {
  const [filter, setFilter] = useState("");
  const logs = usePagedList<RequestLog>("/logs", { filter: filter || undefined });
  return (
    <section aria-labelledby="logs-heading">
      <h2 id="logs-heading">Request logs</h2>
      <FilterBox value={filter} onApply={setFilter} example="status>=400 method:POST" />
      <PagedTable list={logs} caption="Request logs" columns={LOG_COLUMNS} empty="No requests match." />
    </section>
  );
}

/** For developers: the API keys of this mode (create restricted ones, revoke) and the API's request logs. */
export function DevelopersPage({ session }: { session: Session }) {
  usePageTitle("Developers");
  return (
    <>
      <h1>Developers</h1>
      <ApiKeys session={session} />
      <RequestLogs />
    </>
  );
}
