import { z } from "zod";

/**
 * The event POST /webhooks/:id/test sends: to that webhook alone, whatever its status and the kinds it names, signed
 * and delivered as any notification (retried until it answers HTTP 200).
 */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const webhookTestDataSchema = z.object({
  webhookId: z.string().describe("The webhook the test was sent to"),
  message: z.string(),
});
export type WebhookTestData = z.infer<typeof webhookTestDataSchema>;

export const WEBHOOK_TEST_MESSAGE = "A test event from Cardhold: your webhook received it. Answer HTTP 200.";
