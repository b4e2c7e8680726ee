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
  disputes: "authorization-engine",
  simulation: "authorization-engine",
  payments: "bill-service",
  "payment-requests": "authorization-engine",
};

/** The tools are owned by the service whose data each answers from, by their second segment. */
const TOOL_OWNER_BY_SEGMENT: Record<string, Upstream> = {
  bills: "bill-service",
  banks: "bill-service",
  configuration: "bill-service",
  fx: "authorization-engine",
  merchants: "authorization-engine",
};

const owned = (owners: Record<string, Upstream>, segment: string) =>
  Object.hasOwn(owners, segment) ? owners[segment] : undefined;

/**
 * A webhook's test event (POST /webhooks/:id/test) is an event and its delivery: the dispatcher's, not the registry's
 * (it answers from its copy of webhooks.v1). Matched as the services route: any case, an optional trailing slash.
 */
const WEBHOOK_TEST = /^\/webhooks\/[^/]+\/test\/?$/i;

/** The service that owns a request path, by its first segment (its second under /tools). */
export function ownerOf(path: string): Upstream | undefined {
  if (WEBHOOK_TEST.test(path)) return "event-dispatcher";
  const [, first = "", second = ""] = path.split("/");
  return first === "tools" ? owned(TOOL_OWNER_BY_SEGMENT, second) : owned(OWNER_BY_SEGMENT, first);
}
