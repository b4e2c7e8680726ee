export interface RouteCandidate {
  id: string;
  events: string[];
  status: "created" | "enabled" | "disabled";
  isDefault: boolean;
}

/**
 * Interface Rule 8: every enabled webhook whose events list names the kind is called; when none does, the
 * business's default webhook receives it. Created and disabled webhooks receive nothing.
 */
export function routeEvent<W extends RouteCandidate>(kind: string, webhooks: W[]): W[] {
  const covering = webhooks.filter((w) => !w.isDefault && w.status === "enabled" && w.events.includes(kind));
  if (covering.length > 0) return covering;
  return webhooks.filter((w) => w.isDefault && w.status !== "disabled");
}

/**
 * A card program may name the webhook its authorization events go to: that webhook alone, while it exists and is
 * enabled (the default webhook counts as enabled); otherwise Rule 8 as for any event.
 */
export function routeEventTo<W extends RouteCandidate>(
  kind: string,
  webhooks: W[],
  namedWebhookId: string | undefined,
): W[] {
  const named = namedWebhookId ? webhooks.find((w) => w.id === namedWebhookId) : undefined;
  if (named && (named.status === "enabled" || (named.isDefault && named.status !== "disabled"))) return [named];
  return routeEvent(kind, webhooks);
}
