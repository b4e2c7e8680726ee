import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { api, withQuery } from "../api/http";
import { CHANNELS, type Authorization, type Card, type Page, type Session } from "../api/types";
import { ErrorMessage } from "../components/error-message";
import { usePageTitle } from "../components/page-title";
import { StatusBadge } from "../components/status-badge";
import { useWrite } from "../components/use-write";
import { money } from "../format";
import { LiveAuthorizationTable } from "./authorizations";

const KINDS = [
  { value: "check", label: "Check (balance and name inquiry)" },
  { value: "capture", label: "Capture (a purchase)" },
  { value: "update-capture", label: "Amount update of an approved capture" },
  { value: "reverse-capture", label: "Reversal of an approved capture" },
] as const;
type Kind = (typeof KINDS)[number]["value"];

interface Simulation {
  card: string;
  kind: Kind;
  body: Record<string, unknown>;
}

const integer = (value: FormDataEntryValue | null) => (value === null || value === "" ? undefined : Number(value));

function bodyOf(form: FormData, kind: Kind): Record<string, unknown> {
  const body: Record<string, unknown> = { channel: String(form.get("channel") ?? "online") };
  if (kind !== "check") body.amount = integer(form.get("amount"));
  if (kind === "update-capture") body.updateAmount = integer(form.get("updateAmount"));
  const authorization = String(form.get("authorization") ?? "").trim();
  if (authorization && (kind === "update-capture" || kind === "reverse-capture")) body.authorization = authorization;
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** What the network's request became: the decided authorization, or a delayed request still under way. */
function Outcome({ answer }: { answer: unknown }) {
  const body = answer as { code?: string; data?: Authorization & { object?: string } };
  const authorization = body.data?.object === "card.authorization" ? body.data : undefined;
  if (!authorization)
    return (
      <p role="status" className="notice">
        The request was accepted and is still being decided; it appears below when it is.
      </p>
    );
  return (
    <p role="status" className="notice">
      The network's request was decided: <StatusBadge status={authorization.status} />{" "}
      {money(authorization.amount, authorization.currency)}
      {authorization.declineReason && <> ({authorization.declineReason})</>}.{" "}
      <Link href={`/authorizations/${encodeURIComponent(authorization.id)}`}>Open its timeline</Link>
    </p>
  );
}

/** Test mode only: play the card network (check, capture, amount update, reversal) and watch the decision. */
export function SimulatePage({ session }: { session: Session }) {
  usePageTitle("Simulate");
  const id = useId();
  const [kind, setKind] = useState<Kind>("capture");
  const [card, setCard] = useState("");
  const cards = useQuery({
    queryKey: ["/cards", "simulate"],
    queryFn: () => api<Page<Card>>("GET", withQuery("/cards", { filter: "status:active", limit: 20 })),
  });
  const simulate = useWrite<Simulation>(
    ({ card: cardId, kind: chosen, body }) => ({
      method: "POST",
      path: `/simulation/cards/${encodeURIComponent(cardId)}/request-authorization/${chosen}`,
      body,
    }),
    [["/card-authorizations"]],
  );
  const firstCard = cards.data?.data[0]?.id;
  if (session.mode !== "test")
    return (
      <>
        <h1>Simulate</h1>
        <p>Simulation is for test mode only: sign in with a test key.</p>
      </>
    );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const cardId = String(form.get("card") ?? "").trim();
    setCard(cardId);
    simulate.mutate({ card: cardId, kind, body: bodyOf(form, kind) });
  };
  return (
    <>
      <h1>Simulate</h1>
      <form onSubmit={submit} className="panel" aria-label="Simulate a network request">
        <p className="field">
          <label htmlFor={`${id}-card`}>Card id</label>
          <input
            id={`${id}-card`}
            name="card"
            required
            list={`${id}-cards`}
            autoComplete="off"
            spellCheck={false}
            key={firstCard ?? ""}
            defaultValue={card || firstCard}
            aria-describedby={`${id}-card-help`}
          />
          <span id={`${id}-card-help`} className="hint">
            An active card of this business (suggestions list the newest)
          </span>
          <datalist id={`${id}-cards`}>
            {cards.data?.data.map((c) => (
              <option key={c.id} value={c.id}>{`•••• ${c.details.last4} ${c.details.cardHolderName}`}</option>
            ))}
          </datalist>
        </p>
        <fieldset className="choice">
          <legend>Request</legend>
          {KINDS.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name="kind"
                value={option.value}
                checked={kind === option.value}
                onChange={() => setKind(option.value)}
              />
              {option.label}
            </label>
          ))}
        </fieldset>
        <p className="field">
          <label htmlFor={`${id}-channel`}>Channel</label>
          <select id={`${id}-channel`} name="channel" defaultValue="online">
            {CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {channel}
              </option>
            ))}
          </select>
        </p>
        {kind !== "check" && (
          <p className="field">
            <label htmlFor={`${id}-amount`}>Amount (minor units, e.g. kobo)</label>
            <input id={`${id}-amount`} name="amount" type="number" min={0} step={1} required={kind === "capture"} />
          </p>
        )}
        {kind === "update-capture" && (
          <p className="field">
            <label htmlFor={`${id}-update`}>New amount (minor units)</label>
            <input id={`${id}-update`} name="updateAmount" type="number" min={0} step={1} required />
          </p>
        )}
        {(kind === "update-capture" || kind === "reverse-capture") && (
          <p className="field">
            <label htmlFor={`${id}-authorization`}>Authorization id (empty: a new capture first)</label>
            <input id={`${id}-authorization`} name="authorization" autoComplete="off" spellCheck={false} />
          </p>
        )}
        <button type="submit" disabled={simulate.isPending}>
          Send to the network
        </button>
      </form>
      {simulate.isPending && <p role="status">Waiting for the decision…</p>}
      {simulate.data !== undefined && <Outcome answer={simulate.data} />}
      <ErrorMessage error={simulate.error} />
      {card && (
        <section aria-labelledby={`${id}-watch`}>
          <h2 id={`${id}-watch`}>Authorizations on this card</h2>
          <LiveAuthorizationTable filter={`card:${card}`} caption="Authorizations on this card" />
        </section>
      )}
    </>
  );
}
