/**
 * Records of the gateway, the webhook registry and the event-dispatcher. Customer and webhook records are the
 * contracts' own schemas; events mirror services/event-dispatcher/src/store/events.store.ts (toEventRecord,
 * deliveriesOf), request logs store/request-logs.store.ts and keys api-keys.ts (ApiKeyView).
 */
import { z } from "zod";
import {
  businessClaimsRecordSchema,
  customerRecordSchema,
  eventEnvelopeSchema,
  individualClaimsRecordSchema,
  modeSchema,
  webhookRecordSchema,
  webhookSecretSchema,
  webhookTestDataSchema,
} from "@cardhold/contracts";
import { PERMISSIONS } from "../../domain/permissions";
import { named } from "../schema";
import { idOf, time } from "./common";
import { paymentRecord } from "./bills";
import { authorizationRecord, transactionRecord } from "./authorizations";
import { standInRecord } from "./cards";
import { requestRecord } from "./requests";

export const customerRecord = named(
  "Customer",
  customerRecordSchema.extend({
    claims: z
      .union([individualClaimsRecordSchema, businessClaimsRecordSchema])
      .describe("As sent, but an individual's address always has postalCode and identity urls are never shown"),
  }),
);
export const webhookRecord = named(
  "Webhook",
  webhookRecordSchema.extend({
    standIn: standInRecord
      .nullable()
      .describe(
        "Stand-in rules for the captures this webhook decides when it gives no usable answer in time, used when the " +
          "card's program has none of its own (null: none; then timeoutDefault decides)",
      ),
  }),
);
export const signingKeyRecord = named("SigningKey", webhookSecretSchema);

export const eventRecord = named(
  "Event",
  z.object({
    id: idOf("evt.", "Event id"),
    object: z.literal("event"),
    event: z.string().describe("The event kind, e.g. card.authorization.request"),
    resource: z.string().describe("The id of the resource it is about"),
    status: z.enum(["pending", "delivered", "failed"]),
    data: z
      .union([authorizationRecord, transactionRecord, paymentRecord, requestRecord, webhookTestDataSchema])
      .describe("The resource as the event carried it"),
    createdAt: time,
  }),
);

const attempt = z.object({
  attempt: z.number().int(),
  trigger: z.enum(["initial", "scheduled", "manual"]),
  at: time.optional(),
  url: z.string(),
  httpStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  response: z.string().nullable().describe("The start of the receiver's answer"),
  error: z.string().nullable().describe("timeout, connection-error …"),
});

const delivery = z.object({
  webhook: idOf("wh.", "Webhook id"),
  status: z.enum(["pending", "delivering", "delivered", "failed"]),
  nextAttemptAt: time.nullable().describe("When a pending delivery is tried next"),
  attempts: z.array(attempt),
});

export const eventRetriedRecord = named("EventWithDeliveries", eventRecord.extend({ deliveries: z.array(delivery) }));
export const eventDetailRecord = named(
  "EventDetail",
  eventRetriedRecord.extend({
    payload: eventEnvelopeSchema.describe("The envelope as stored; the delivered body adds `mode`"),
  }),
);

export const requestLogRecord = named(
  "RequestLog",
  z.object({
    id: idOf("log.", "Log id"),
    object: z.literal("log"),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    duration: z.number().int().describe("Milliseconds"),
    apiKey: idOf("key.", "The key used (expandable)").nullable(),
    requestId: idOf("req.", "Request id"),
    requestBody: z.unknown().describe("Secrets redacted"),
    responseBody: z.unknown().describe("Secrets redacted"),
    createdAt: time,
  }),
);

export const apiKeyRecord = named(
  "ApiKey",
  z.object({
    id: idOf("key.", "API key id"),
    object: z.literal("apiKey"),
    mode: modeSchema,
    name: z.string().nullable(),
    last4: z.string(),
    permissions: z.array(z.enum(PERMISSIONS)).nullable().describe("null: full access"),
    delayedRequests: z
      .boolean()
      .describe("A write not answered within DELAYED_REQUEST_AFTER_MS is answered 202 request-accepted"),
    createdAt: time,
    lastUsedAt: time.nullable(),
    revokedAt: time.nullable(),
  }),
);

export const createdApiKeyRecord = named(
  "CreatedApiKey",
  apiKeyRecord.extend({
    key: z.string().describe("The secret key, `sk.<mode>.<secret>`: shown this once"),
  }),
);

export const createdBusinessRecord = named(
  "CreatedBusiness",
  z.object({
    business: z.object({
      id: idOf("bus.", "Business id"),
      object: z.literal("business"),
      name: z.string(),
      defaultWebhook: z.object({ url: z.string() }),
      createdAt: time,
    }),
    testKey: z.string().describe("A full-access test key, `sk.test.…`: shown this once"),
  }),
);
