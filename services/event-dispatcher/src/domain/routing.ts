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
