import type { OutgoingMessage } from "@cardhold/bus";
import { TOPICS, type EventPublishedMessage, type Mode } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";

/** What a decision event carries beside the event: its deadline, and the asking engine's address for the answer. */
export interface DecisionAsked {
  answerBy: Date;
  answerTo?: string;
}

/**
 * A customer-facing event for the dispatcher (events.v1, keyed by the resource so one authorization's events are
 * delivered in order), optionally to one named webhook. Returns the message and the event id (`evt.…`).
 */
export function eventFor(
  scope: Scope,
  kind: string,
  data: Record<string, unknown>,
  resourceId: string,
  eventId: string = newId("event"),
  webhookId?: string,
  decision?: DecisionAsked,
): { message: OutgoingMessage; eventId: string } {
  const now = new Date().toISOString();
  const value: EventPublishedMessage = {
    type: "event.published",
    businessId: scope.businessId,
    mode: scope.mode as Mode,
    occurredAt: now,
    data: {
      resourceId,
      envelope: { event: kind, data, metadata: { sentAt: now, event: eventId } },
      ...(webhookId && { webhookId }),
      ...(decision && { answerBy: decision.answerBy.toISOString() }),
      ...(decision?.answerTo && { answerTo: decision.answerTo }),
    },
  };
  return { message: { topic: TOPICS.events, key: resourceId, value }, eventId };
}
