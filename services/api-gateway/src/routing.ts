/** The services behind the gateway, and which one owns each top-level path. */
export const UPSTREAMS = [
  "customer-service",
  "webhook-registry",
  "event-dispatcher",
  "authorization-engine",
  "bill-service",
] as const;
export type Upstream = (typeof UPSTREAMS)[number];

const OWNER_BY_SEGMENT: Record<string, Upstream> = {
  customers: "customer-service",
  webhooks: "webhook-registry",
  events: "event-dispatcher",
  "card-programs": "authorization-engine",
  cards: "authorization-engine",
  accounts: "authorization-engine",
  "card-authorizations": "authorization-engine",
  "card-transactions": "authorization-engine",
  fees: "authorization-engine",
  simulation: "authorization-engine",
  payments: "bill-service",
  tools: "bill-service",
};

/** The service that owns a request path, by its first segment. */
export function ownerOf(path: string): Upstream | undefined {
  const segment = path.split("/")[1] ?? "";
  return Object.hasOwn(OWNER_BY_SEGMENT, segment) ? OWNER_BY_SEGMENT[segment] : undefined;
}
