import { channel } from "node:diagnostics_channel";
import { LOAD_TAG_HEADER } from "../support/crash-load";

export interface FetchTimes {
  /** When undici handed the request to its connection pool (ms since the epoch). */
  createdAt?: number;
  /** When the pool wrote its headers on a connection. */
  headersSentAt?: number;
  /** That connection's local port (the balancer sees it as the client's port). */
  port?: number;
}

interface UndiciRequestMessage {
  request: { headers: unknown };
  socket?: { localPort?: number };
}

/** The tag of a request as undici holds it: headers as a flat [name, value, …] list or a raw string. */
function tagOf(headers: unknown): string | undefined {
  if (Array.isArray(headers)) {
    const at = headers.findIndex((h, i) => i % 2 === 0 && String(h).toLowerCase() === LOAD_TAG_HEADER);
    return at >= 0 ? String(headers[at + 1]) : undefined;
  }
  return new RegExp(`^${LOAD_TAG_HEADER}: *(.*)$`, "im").exec(String(headers))?.[1]?.trim();
}

/**
 * Records, from undici's diagnostics channels, when each tagged request was queued and when it went on a connection:
 * a request that reached the balancer late shows whether it waited in this process's pool or on the way.
 */
export function recordFetchTimes(): { timesOf(tag: string): FetchTimes; stop(): void } {
  const times = new Map<string, FetchTimes>();
  const at = (field: "createdAt" | "headersSentAt") => (message: unknown) => {
    const { request, socket } = message as UndiciRequestMessage;
    const tag = tagOf(request?.headers);
    if (!tag) return;
    const entry = times.get(tag) ?? {};
    entry[field] ??= Date.now();
    if (field === "headersSentAt") entry.port = socket?.localPort;
    times.set(tag, entry);
  };
  const created = at("createdAt");
  const sent = at("headersSentAt");
  channel("undici:request:create").subscribe(created);
  channel("undici:client:sendHeaders").subscribe(sent);
  return {
    timesOf: (tag) => times.get(tag) ?? {},
    stop() {
      channel("undici:request:create").unsubscribe(created);
      channel("undici:client:sendHeaders").unsubscribe(sent);
    },
  };
}
