import { createHmac } from "node:crypto";
import { parseArgs } from "node:util";
import { output, UsageError, type CliIo, type Output } from "./cli-io";
import { followEvents, latestEvents, type EventRecord } from "./events-feed";
import { wholeNumber } from "./events-tail";
import { gatewayClient, type GatewayClient } from "./gateway-client";

export const LISTEN_USAGE = `usage: cardhold listen --forward-to <url> [options]
  Follows the business's new events and POSTs each one's exact envelope to a local receiver, signed with
  Service-Signature like the platform's own deliveries, printing the receiver's answer.

  Forwarded answers decide nothing: the platform's own delivery to the webhook decides authorizations. Use listen
  to watch and debug a local receiver, e.g. while the default webhook points somewhere else.

  --forward-to <url>         the local receiver, e.g. http://127.0.0.1:4000/webhook (required)
  --event <kind>             only this kind of event
  --signing-key <key>        sign with this key (default: the default webhook's signing key)
  --interval <ms>            how often to ask for new events (default 1000)
  --key <sk.…>               the business's secret key (default: CARDHOLD_KEY)
  --gateway <url>            default: CARDHOLD_URL or http://127.0.0.1:8080
  --json                     one JSON object per forwarded event
  --help, -h                 print this help`;

const OPTIONS = {
  "forward-to": { type: "string" },
  event: { type: "string" },
  "signing-key": { type: "string" },
  interval: { type: "string" },
  key: { type: "string" },
  gateway: { type: "string" },
  json: { type: "boolean" },
} as const;

interface Webhook {
  id: string;
  url: string;
}

/** The default webhook (`GET /webhooks?filter=isDefault:true`) and its signing key (`GET /webhooks/:id/secret`). */
export async function defaultWebhookKey(client: GatewayClient): Promise<{ webhook: Webhook; signingKey: string }> {
  const list = await client.get<{ data: Webhook[] }>("/webhooks?filter=isDefault:true&limit=1");
  const webhook = list.data[0];
  if (!webhook) throw new Error("this business has no default webhook; pass --signing-key");
  const secret = await client.get<{ data: { signingKey: string } }>(
    `/webhooks/${encodeURIComponent(webhook.id)}/secret`,
  );
  return { webhook, signingKey: secret.data.signingKey };
}

/**
 * The bytes the platform delivers: `GET /events/:id` gives the envelope parsed (`payload`); the dispatcher stores
 * and sends JSON.stringify output, which JSON.parse → JSON.stringify reproduces byte for byte.
 */
export async function envelopeBytes(client: GatewayClient, eventId: string): Promise<string> {
  const event = await client.get<{ data: { payload: unknown } }>(`/events/${encodeURIComponent(eventId)}`);
  return JSON.stringify(event.data.payload);
}

export interface ForwardResult {
  status?: number;
  body?: unknown;
  error?: string;
  latencyMs: number;
}

export async function forwardSigned(
  url: string,
  body: string,
  signingKey: string,
  eventId: string,
): Promise<ForwardResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "service-signature": createHmac("sha512", signingKey).update(body).digest("hex"),
        "x-cardhold-event-id": eventId,
        "user-agent": "cardhold-cli-listen",
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let answer: unknown = text;
    try {
      answer = JSON.parse(text);
    } catch {
      // not JSON: show the text
    }
    return { status: response.status, body: answer, latencyMs: elapsed() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    const reason =
      (error as Error).name === "TimeoutError" ? "no answer within 10 s" : (cause?.code ?? (error as Error).message);
    return { error: reason, latencyMs: elapsed() };
  }
}

function report(out: Output, event: EventRecord, url: string, result: ForwardResult) {
  const answer = result.error
    ? `failed: ${result.error}`
    : `${result.status} ${JSON.stringify(result.body).slice(0, 300)}`;
  out.result(
    `${event.createdAt}  ${event.event}  ${event.id}  ${event.resource}\n  → ${url}  ← ${answer}  (${result.latencyMs} ms)`,
    {
      event: event.id,
      kind: event.event,
      resource: event.resource,
      createdAt: event.createdAt,
      forwardedTo: url,
      ...result,
    },
  );
}

/** `cardhold listen --forward-to <url>`. */
export async function listenCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true });
  const url = values["forward-to"];
  if (!url) throw new UsageError("listen needs --forward-to <url>", LISTEN_USAGE);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`--forward-to must be an http(s) URL, got "${url}"`, LISTEN_USAGE);
  const intervalMs = wholeNumber(values.interval, "interval", 1_000, LISTEN_USAGE, 50);
  const client = gatewayClient(values, io);
  const out = output(io, values.json ?? false);

  let signingKey = values["signing-key"];
  let platformTarget = "the webhooks registered for each kind";
  if (!signingKey) {
    const found = await defaultWebhookKey(client);
    signingKey = found.signingKey;
    platformTarget = `the default webhook ${found.webhook.id} (${found.webhook.url})`;
  }
  const [newest] = await latestEvents(client, { limit: 1, kind: values.event });
  out.progress(
    `forwarding new ${values.event ? `${values.event} ` : ""}events of this business to ${url}, signed with ${values["signing-key"] ? "--signing-key" : "the default webhook's key"}`,
  );
  out.progress(
    `note: these answers decide nothing; the platform's own delivery to ${platformTarget} decides authorizations`,
  );
  out.progress("ready: waiting for events (Ctrl-C to stop) …");

  let count = 0;
  const feed = followEvents(client, {
    kind: values.event,
    after: newest?.id,
    intervalMs,
    signal: io.signal,
    onTrouble: (error) => out.warn(`warning: ${error.message}; trying again`),
  });
  for await (const event of feed) {
    const body = await envelopeBytes(client, event.id);
    report(out, event, url, await forwardSigned(url, body, signingKey, event.id));
    count += 1;
  }
  out.progress(`… ${count} event${count === 1 ? "" : "s"} forwarded`);
  return 0;
}
