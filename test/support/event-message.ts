import { TOPICS, type EventPublishedMessage } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";

/** An events.v1 message as the engine or bill-service would publish it, for tests and benchmarks. */
export function eventMessage(
  businessId: string,
  kind: string,
  data: Record<string, unknown> = {},
  resourceId: string = newId("authorization"),
) {
  const eventId = newId("event");
  const value: EventPublishedMessage = {
    type: "event.published",
    businessId,
    mode: "test",
    occurredAt: new Date().toISOString(),
    data: {
      resourceId,
      envelope: {
        event: kind,
        data: { id: resourceId, ...data },
        metadata: { sentAt: new Date().toISOString(), event: eventId },
      },
    },
  };
  return { topic: TOPICS.events, key: resourceId, value, id: `msg.${eventId}`, eventId, resourceId };
}
