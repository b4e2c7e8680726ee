/**
 * The console's charts and a webhook's test event, on the public API: GET /card-authorizations/stats (the engine),
 * GET /events/stats and POST /webhooks/{id}/test (the event-dispatcher; the gateway routes that one /webhooks path
 * there, see routing.ts).
 */
import { z } from "zod";
import { authorizationStatsSchema, deliveryStatsSchema, statsQuerySchema } from "@cardhold/contracts";
import { IDS } from "./examples";
import { operation, read } from "./operations";
import { query } from "./parameters";
import { eventRetriedRecord } from "./records/platform";
import { requestAccepted } from "./request-paths";
import { error } from "./responses";
import { jsonSchema, named, ref, success, type Paths } from "./schema";

const authorizationStats = named("AuthorizationStats", authorizationStatsSchema);
const deliveryStats = named("DeliveryStats", deliveryStatsSchema);

const WINDOW = query(
  "window",
  "hour: the last hour in 60 one-minute buckets; day: the last day in 96 fifteen-minute buckets. Buckets are whole " +
    "minutes or quarter hours (UTC), the last one the bucket now is in. Anything else is a 400.",
  jsonSchema(statsQuerySchema.shape.window),
);

const counts = (count: number, approved: number, reasons: Record<string, number>, p50: number, p99: number) => ({
  count,
  approved,
  declined: Object.values(reasons).reduce((n, r) => n + r, 0),
  declinedByReason: reasons,
  decisionLatencyP50Ms: p50,
  decisionLatencyP99Ms: p99,
});

const authorizationStatsExample = {
  window: "hour",
  bucketSeconds: 60,
  buckets: [
    { start: "2025-03-14T17:23:00.000Z", ...counts(12, 10, { "insufficient-funds": 2 }, 38, 140) },
    { start: "2025-03-14T17:24:00.000Z", ...counts(9, 8, { "timeout-error": 1 }, 41, 4006) },
  ],
  totals: counts(21, 18, { "insufficient-funds": 2, "timeout-error": 1 }, 39, 4006),
};

const deliveryStatsExample = {
  window: "hour",
  bucketSeconds: 60,
  buckets: [
    { start: "2025-03-14T17:23:00.000Z", attempts: 30, failed: 0 },
    { start: "2025-03-14T17:24:00.000Z", attempts: 24, failed: 6 },
  ],
  totals: { attempts: 54, failed: 6, failureRate: 0.1111111111111111 },
};

const testEventExample = {
  id: IDS.event,
  object: "event",
  event: "webhook.test",
  resource: IDS.webhook,
  status: "pending",
  data: { webhookId: IDS.webhook, message: "A test event from Cardhold: your webhook received it. Answer HTTP 200." },
  createdAt: "2025-03-14T18:22:51.120Z",
  deliveries: [{ webhook: IDS.webhook, status: "pending", nextAttemptAt: "2025-03-14T18:22:51.120Z", attempts: [] }],
};

/** 202 with the test event; a key with delayedRequests on may get the gateway's request-accepted instead. */
function testEventAccepted() {
  const delayed = requestAccepted();
  const delayedSchema = (delayed.content as Record<string, { schema: unknown }>)["application/json"]!.schema;
  return {
    description:
      "The webhook.test event, stored with one pending delivery to this webhook; GET /events/{id} shows its " +
      "attempts. (With delayedRequests on, a slow answer may instead be the gateway's 202 request-accepted.)",
    content: {
      "application/json": {
        schema: { anyOf: [success(ref(eventRetriedRecord)), delayedSchema] },
        example: { code: "success", data: testEventExample },
      },
    },
  };
}

export function statsPaths(): Paths {
  return {
    "/card-authorizations/stats": {
      get: read(
        "Authorizations per minute or quarter hour: approvals, declines by reason, decision latency",
        authorizationStats,
        {
          description:
            "The authorizations of your business and mode created in each bucket, and over the whole window. Decision " +
            "latency runs from an authorization's creation to its first decision (the receiver's answer, a pre-check's " +
            "decline, the timeout default or stand-in); authorizations decided before the platform kept that time have " +
            "none. A pending one counts only in count.",
          parameters: [WINDOW],
          example: { code: "success", data: authorizationStatsExample },
        },
      ),
    },
    "/events/stats": {
      get: read("Webhook delivery attempts per minute or quarter hour, failed ones, the failure rate", deliveryStats, {
        description:
          "Every attempt to deliver an event of your business and mode to any of its webhooks, by when it was made. " +
          "Failed: anything but HTTP 200 (an error status, a timeout, no connection), retried or not.",
        parameters: [WINDOW],
        example: { code: "success", data: deliveryStatsExample },
      }),
    },
    "/webhooks/{id}/test": {
      post: operation({
        summary: "Send a signed webhook.test event to this webhook alone",
        description:
          "Whatever the webhook's status (created and disabled ones too: check a receiver before enabling it) and " +
          "the kinds it names. Signed and delivered as any notification: every attempt recorded, retried until HTTP " +
          "200. Its data: {webhookId, message}.",
        body: z.strictObject({}),
        returns: "The webhook.test event",
        schema: success(ref(eventRetriedRecord)),
        status: "202",
        responses: {
          "202": testEventAccepted(),
          "404": error("NotFound", "No such webhook in this business and mode"),
        },
      }),
    },
  };
}
