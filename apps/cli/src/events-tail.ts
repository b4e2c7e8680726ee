import { parseArgs } from "node:util";
import { output, UsageError, type CliIo } from "./cli-io";
import { eventLine, followEvents, latestEvents } from "./events-feed";
import { gatewayClient } from "./gateway-client";

export const EVENTS_TAIL_USAGE = `usage: cardhold events tail [--follow] [--event <kind>] [options]
  Prints the business's latest events, oldest first, one line each: time, kind, id, resource, delivery status.

  --follow, -f               keep printing new events as they come (Ctrl-C to stop)
  --event <kind>             only this kind, e.g. card.authorization.request
  --limit <n>                how many of the latest events to print first (default 20, 0 for none)
  --interval <ms>            how often --follow asks for new events (default 1000)
  --key <sk.…>               the business's secret key (default: CARDHOLD_KEY)
  --gateway <url>            default: CARDHOLD_URL or http://127.0.0.1:8080
  --json                     one JSON object per event, as GET /events returns it
  --help, -h                 print this help`;

const OPTIONS = {
  follow: { type: "boolean", short: "f" },
  event: { type: "string" },
  limit: { type: "string" },
  interval: { type: "string" },
  key: { type: "string" },
  gateway: { type: "string" },
  json: { type: "boolean" },
} as const;

export function wholeNumber(raw: string | undefined, name: string, fallback: number, usage: string, min = 0): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new UsageError(`--${name} must be a whole number${min ? ` of at least ${min}` : ""}, got "${raw}"`, usage);
  return Number(raw);
}

/** `cardhold events tail`. */
export async function eventsTailCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true });
  const limit = wholeNumber(values.limit, "limit", 20, EVENTS_TAIL_USAGE);
  const intervalMs = wholeNumber(values.interval, "interval", 1_000, EVENTS_TAIL_USAGE, 50);
  const client = gatewayClient(values, io);
  const out = output(io, values.json ?? false);
  const kind = values.event;

  // The newest event is the cursor for --follow, even when --limit 0 prints none.
  const latest = await latestEvents(client, { limit: Math.max(limit, 1), kind });
  const shown = limit === 0 ? [] : latest;
  for (const event of shown) out.result(eventLine(event), event);
  out.progress(
    `… ${shown.length} event${shown.length === 1 ? "" : "s"}${kind ? ` of kind ${kind}` : ""}${values.follow ? "; following, Ctrl-C to stop" : ""}`,
  );
  if (!values.follow) return 0;

  let count = 0;
  const feed = followEvents(client, {
    kind,
    after: latest.at(-1)?.id,
    intervalMs,
    signal: io.signal,
    onTrouble: (error) => out.warn(`warning: ${error.message}; trying again`),
  });
  for await (const event of feed) {
    out.result(eventLine(event), event);
    count += 1;
  }
  out.progress(`… ${count} new event${count === 1 ? "" : "s"} while following`);
  return 0;
}
