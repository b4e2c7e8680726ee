import type { Request } from "express";
import { Counter, type Registry } from "prom-client";
import { createAdmission } from "@cardhold/platform";

/**
 * The card network's new authorizations (test mode): the engine holds each one's request until it is decided. Amount
 * changes and reversals are not admitted here, as the engine never refuses them.
 */
const NETWORK_AUTHORIZATION = /^\/simulation\/cards\/[^/]+\/request-authorization\/(check|capture)\/?$/i;

export const isNetworkAuthorization = (req: Request) => req.method === "POST" && NETWORK_AUTHORIZATION.test(req.path);

/**
 * The gateway's places for the card network's authorizations it forwards to the engine over HTTP: as many as its
 * connections to the engine (each request holds one until decided, up to 4 s), three quarters at most for one
 * business, so that a business whose webhook stalls cannot take every connection from the others' payments. A
 * request waits for a place at most `maxQueuedMs` since it reached the gateway (the engine's own budget by default),
 * then is refused 503 `platform-overloaded` before it costs the engine anything.
 */
export function networkAdmission(registry: Registry | undefined, connections: number, maxQueuedMs = 2_000) {
  const shed =
    registry &&
    new Counter({
      name: "gateway_network_requests_shed_total",
      help: "Card network authorization requests the gateway refused (503 platform-overloaded): no place to the engine in time",
      registers: [registry],
    });
  const admission = createAdmission({ maxInProgress: connections, maxQueuedMs, onShed: () => shed?.inc() });
  return <T>(req: Request, forward: () => Promise<T>): Promise<T> =>
    isNetworkAuthorization(req) ? admission.admit(req.receivedAt, forward, req.caller!.businessId) : forward();
}
