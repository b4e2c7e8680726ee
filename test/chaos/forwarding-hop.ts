import type { IncomingHttpHeaders, OutgoingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1): a proxy must not pass them on. Passed on,
 * an upstream's `keep-alive: timeout=65` would tell the client to keep an idle connection longer than this hop keeps
 * it, and the client's next request on it would meet a connection being closed.
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

export function endToEndHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.includes(name)));
}

/**
 * The accept queue a hop listens with. Node's default (511) overflows when hundreds of clients connect at once on a
 * busy machine; the kernel then drops their SYNs and they connect only after retransmits, seconds later, which a
 * run would blame on the platform. The kernel caps it at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4_096;

/** Listens on a free port of 127.0.0.1; resolves to the port. */
export async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: LISTEN_BACKLOG }, resolve));
  return (server.address() as AddressInfo).port;
}
