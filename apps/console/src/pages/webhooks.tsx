import { useId, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { EVENT_KINDS } from "../../../../packages/contracts/src/event-kinds";
import { unwrap } from "../api/http";
import { usePagedList } from "../api/list";
import { can } from "../api/session";
import type { EventRecord, Session, Webhook } from "../api/types";
import type { Column } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { PagedTable } from "../components/paged-table";
import { usePageTitle } from "../components/page-title";
import { StatusBadge } from "../components/status-badge";
import { useWrite } from "../components/use-write";
import { dateTime } from "../format";

/** webhook.test goes to the webhook it tests, whatever it subscribes to. */
const SUBSCRIBABLE = EVENT_KINDS.filter((kind) => kind !== "webhook.test");

type WebhookAction = "enable" | "disable" | "roll" | "test";

interface ActionResult {
  webhook: Webhook;
  action: WebhookAction;
  answer: unknown;
}

const ACTION_PATHS: Record<WebhookAction, string> = {
  enable: "enable",
  disable: "disable",
  roll: "secret/roll",
  test: "test",
};

/** What an action's answer tells: the new signing key (shown once) or the test event sent. */
function ActionOutcome({ result }: { result: ActionResult }) {
  const { webhook, action } = result;
  const answer = unwrap<{ signingKey?: string; event?: EventRecord }>(result.answer) ?? {};
  if (action === "roll")
    return (
      <div role="status" className="notice">
        <p>
          New signing key of {webhook.name} (shown once; the old key still signs for 24 hours):{" "}
          <code className="secret">{answer.signingKey}</code>
        </p>
      </div>
    );
  if (action === "test")
    return (
      <p role="status" className="notice">
        Test event sent to {webhook.name}
        {answer.event && (
          <>
            : <Link href={`/events/${encodeURIComponent(answer.event.id)}`}>{answer.event.id}</Link>
          </>
        )}
        .
      </p>
    );
  return (
    <p role="status" className="notice">
      {webhook.name} {action === "enable" ? "enabled" : "disabled"}.
    </p>
  );
}

function CreateWebhook({ onCreated }: { onCreated: () => void }) {
  const id = useId();
  const create = useWrite<Record<string, unknown>>(
    (body) => ({ method: "POST", path: "/webhooks", body }),
    [["/webhooks"]],
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const timeoutDefault = String(form.get("timeoutDefault") ?? "");
    const target = event.currentTarget;
    create.mutate(
      {
        name: String(form.get("name") ?? ""),
        url: String(form.get("url") ?? ""),
        events: form.getAll("events").map(String),
        ...(timeoutDefault ? { timeoutDefault } : {}),
      },
      {
        onSuccess: () => {
          target.reset();
          onCreated();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-heading`} className="panel">
      <h2 id={`${id}-heading`}>Create a webhook</h2>
      <p className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} name="name" required maxLength={100} />
      </p>
      <p className="field">
        <label htmlFor={`${id}-url`}>URL</label>
        <input id={`${id}-url`} name="url" type="url" required placeholder="https://example.com/webhook" />
      </p>
      <fieldset className="checkboxes">
        <legend>Events</legend>
        {SUBSCRIBABLE.map((kind) => (
          <label key={kind}>
            <input type="checkbox" name="events" value={kind} />
            {kind}
          </label>
        ))}
      </fieldset>
      <p className="field">
        <label htmlFor={`${id}-timeout`}>When the receiver does not answer a pending update in time</label>
        <select id={`${id}-timeout`} name="timeoutDefault" defaultValue="">
          <option value="">The platform's default</option>
          <option value="approve">Approve</option>
          <option value="decline">Decline</option>
        </select>
      </p>
      <button type="submit" disabled={create.isPending}>
        Create webhook
      </button>
      {create.isSuccess && <p role="status">Webhook created. Enable it to make it take effect.</p>}
      <ErrorMessage error={create.error} />
    </form>
  );
}

/** The business's webhooks: create, enable, disable, roll the signing key, send a test event. */
export function WebhooksPage({ session }: { session: Session }) {
  usePageTitle("Webhooks");
  const list = usePagedList<Webhook>("/webhooks");
  const [result, setResult] = useState<ActionResult>();
  const act = useWrite<{ webhook: Webhook; action: WebhookAction }>(
    ({ webhook, action }) => ({
      method: "POST",
      path: `/webhooks/${encodeURIComponent(webhook.id)}/${ACTION_PATHS[action]}`,
      body: {},
    }),
    [["/webhooks"]],
  );
  const run = (webhook: Webhook, action: WebhookAction) => {
    setResult(undefined);
    act.mutate({ webhook, action }, { onSuccess: (answer) => setResult({ webhook, action, answer }) });
  };
  const canWrite = can(session, "write");
  const columns: Column<Webhook>[] = [
    { header: "Name", cell: (w) => `${w.name}${w.isDefault ? " (default)" : ""}` },
    { header: "URL", cell: (w) => <code>{w.url}</code> },
    { header: "Events", cell: (w) => (w.events.length ? w.events.join(", ") : "every event no other webhook takes") },
    { header: "Status", cell: (w) => <StatusBadge status={w.status} /> },
    { header: "Created", cell: (w) => dateTime(w.createdAt) },
  ];
  if (canWrite)
    columns.push({
      header: "Actions",
      cell: (w) => (
        <span className="actions">
          {w.status !== "enabled" && !w.isDefault && (
            <button type="button" onClick={() => run(w, "enable")} aria-label={`Enable ${w.name}`}>
              Enable
            </button>
          )}
          {w.status === "enabled" && !w.isDefault && (
            <button type="button" onClick={() => run(w, "disable")} aria-label={`Disable ${w.name}`}>
              Disable
            </button>
          )}
          <button type="button" onClick={() => run(w, "roll")} aria-label={`Roll signing key of ${w.name}`}>
            Roll signing key
          </button>
          <button type="button" onClick={() => run(w, "test")} aria-label={`Send test event to ${w.name}`}>
            Send test event
          </button>
        </span>
      ),
    });
  return (
    <>
      <h1>Webhooks</h1>
      {result && <ActionOutcome result={result} />}
      <ErrorMessage error={act.error} />
      <PagedTable list={list} caption="Webhooks" columns={columns} empty="No webhooks." />
      {canWrite && <CreateWebhook onCreated={() => setResult(undefined)} />}
    </>
  );
}
