import { pause } from "./cli-io";
import { ApiError, GatewayUnreachable, type GatewayClient } from "./gateway-client";

/** An event as `GET /events` lists it (see the event-dispatcher's toEventRecord). */
export interface EventRecord {
  id: string;
  object: "event";
  event: string;
  resource: string;
  status: string;
  data: unknown;
  createdAt: string;
}

interface EventPage {
  data: EventRecord[];
  metadata: { hasMore: boolean };
}

const PAGE = 100;

function eventsPath(params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  return `/events?${query}`;
}

const kindFilter = (kind?: string) => (kind ? `event:"${kind.replace(/"/g, '\\"')}"` : undefined);

/** The newest `limit` events (of one kind when given), oldest first. */
export async function latestEvents(
  client: GatewayClient,
  opts: { limit: number; kind?: string },
): Promise<EventRecord[]> {
  const page = await client.get<EventPage>(eventsPath({ limit: opts.limit, filter: kindFilter(opts.kind) }));
  return [...page.data].reverse();
}

export interface FollowOptions {
  kind?: string;
  /** The last event already seen; undefined follows from the very first event. */
  after?: string;
  intervalMs: number;
  signal?: AbortSignal;
  /** Told when the gateway is unreachable or failing (5xx); the feed keeps trying. */
  onTrouble?: (error: Error) => void;
}

/**
 * Every event after `after`, in creation order, as it appears: pages through `GET /events?sort=createdAt&after=…`
 * and polls every `intervalMs` once it is at the end. Ends when the signal aborts; a 4xx answer throws.
 */
export async function* followEvents(client: GatewayClient, opts: FollowOptions): AsyncGenerator<EventRecord> {
  let cursor = opts.after;
  while (!opts.signal?.aborted) {
    let page: EventPage;
    try {
      page = await client.get<EventPage>(
        eventsPath({ sort: "createdAt", limit: PAGE, after: cursor, filter: kindFilter(opts.kind) }),
      );
    } catch (error) {
      const transient = error instanceof GatewayUnreachable || (error instanceof ApiError && error.status >= 500);
      if (!transient) throw error;
      opts.onTrouble?.(error);
      await pause(opts.intervalMs * 5, opts.signal);
      continue;
    }
    for (const event of page.data) {
      if (opts.signal?.aborted) return;
      cursor = event.id;
      yield event;
    }
    if (!page.metadata.hasMore) await pause(opts.intervalMs, opts.signal);
  }
}

/** One readable line: time, kind, id, resource, status. */
export function eventLine(e: EventRecord): string {
  return `${e.createdAt}  ${e.event.padEnd(28)}  ${e.id.padEnd(22)}  ${e.resource.padEnd(26)}  ${e.status}`;
}
