import { WEBHOOK_TEST_EVENT, WEBHOOK_TEST_MESSAGE, type WebhookTestData } from "@cardhold/contracts";

/** The envelope of a webhook's test event (POST /webhooks/:id/test), as a producer would publish it on events.v1. */
export function testEventEnvelope(webhookId: string, eventId: string, now: Date): Record<string, unknown> {
  const data: WebhookTestData = { webhookId, message: WEBHOOK_TEST_MESSAGE };
  return { event: WEBHOOK_TEST_EVENT, data, metadata: { sentAt: now.toISOString(), event: eventId } };
}
