import type { MemoryBus } from "@cardhold/bus";
import { TOPICS, type Mode, type WebhookChangedMessage } from "@cardhold/contracts";
import { newId, type Listening } from "@cardhold/platform";
import { eventMessage } from "../../../test/support/event-message";
import { callService, type Reply } from "../../../test/support/internal-api";
import { INTERNAL } from "./harness";

export interface Hook {
  id: string;
  businessId: string;
  signingKey: string;
}

/** webhooks.v1 as the registry announces a webhook (a default, enabled one unless `change` says otherwise). */
export async function announceWebhook(
  bus: MemoryBus,
  businessId: string,
  url: string,
  change: Partial<WebhookChangedMessage["data"]> = {},
  mode: Mode = "test",
): Promise<Hook> {
  const data = {
    id: newId("webhook"),
    url,
    events: [],
    signingKey: `key-${Math.random()}`,
    status: "enabled" as const,
    isDefault: true,
    ...change,
  };
  const value: WebhookChangedMessage = {
    type: "webhook.changed",
    businessId,
    mode,
    occurredAt: new Date().toISOString(),
    data,
  };
  await bus.publish([{ topic: TOPICS.webhooks, key: data.id, value }]);
  return { id: data.id, businessId, signingKey: data.signingKey };
}

/** events.v1 as a producer publishes an event (test mode); returns its id and resource. */
export async function publishEvent(
  bus: MemoryBus,
  businessId: string,
  kind: string,
  data: Record<string, unknown>,
  resourceId?: string,
) {
  const message = eventMessage(businessId, kind, data, resourceId);
  await bus.publish([message]);
  return { id: message.eventId, resourceId: message.resourceId };
}

/** Calls the dispatcher as the gateway does: internal token, business and mode headers. */
export function callDispatcher(
  http: Listening,
  method: string,
  path: string,
  businessId: string,
  body?: unknown,
  opts: { mode?: Mode; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return callService(http.url, INTERNAL, { businessId, mode: opts.mode ?? "test" }, method, path, body, opts.headers);
}
