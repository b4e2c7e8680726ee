/** The webhook-registry's and the event-dispatcher's operations: /webhooks and /events. */
import { z } from "zod";
import { createWebhookSchema, rollSecretSchema, updateWebhookSchema } from "@cardhold/contracts";
import { webhookRequest } from "./examples";
import { list, read, write } from "./operations";
import {
  eventDetailRecord,
  eventRecord,
  eventRetriedRecord,
  signingKeyRecord,
  webhookRecord,
} from "./records/platform";
import { error } from "./responses";
import type { Paths } from "./schema";

/** enable, disable and retry take `{}` and nothing else. */
const emptyBody = z.strictObject({});
/** What create and update say about `signatureHeaders` (the rules are in contracts' signature-headers.ts). */
const SIGNATURE_HEADERS =
  "signatureHeaders: up to 5 extra header names each delivery carries the Service-Signature value under, for receivers " +
  "that read the signature from a header named after their provider (e.g. Acme-Signature). Names are HTTP tokens, " +
  "case-insensitive and kept as written; names the platform or HTTP sets (Content-Type, Content-*, Host, User-Agent, " +
  "Service-Signature, X-Cardhold-*, traceparent, Idempotency-*, Webhook-*, hop-by-hop headers …) are refused with a " +
  "400 naming the field.";
/** What create and update say about `standIn` (the rules are contracts' standInSchema, as on card programs). */
const STAND_IN =
  "standIn: stand-in rules, as a card program's authorization.standIn, for the captures this webhook decides when it " +
  "gives no usable answer in time; a program's own rules win, and without either timeoutDefault decides. The decision " +
  "is decisionType stand-in with standInRule and standInSource webhook. Bad rules are a 400 naming the field.";
const notOnDefault = {
  "422": error("StateConflict", "Not allowed on the default webhook, or in the webhook's status"),
};

export function webhookPaths(): Paths {
  return {
    "/webhooks": {
      post: write(
        "Create a webhook (status created: it takes effect once enabled)",
        createWebhookSchema,
        webhookRecord,
        {
          status: "201",
          bodyExample: webhookRequest,
          returns: "The webhook (never its signing key)",
          description: `${SIGNATURE_HEADERS} ${STAND_IN}`,
        },
      ),
      get: list("List webhooks, the default one included", webhookRecord),
    },
    "/webhooks/{id}": {
      get: read("Retrieve a webhook", webhookRecord),
      put: write("Update a webhook (every field but the signing key)", updateWebhookSchema, webhookRecord, {
        description: `Fields left out keep their value; the default webhook may change its url, description, metadata, timeoutDefault, signatureHeaders and standIn. ${SIGNATURE_HEADERS} signatureHeaders [] removes them. ${STAND_IN} standIn null removes them.`,
        responses: notOnDefault,
      }),
      delete: write("Delete a webhook; its event kinds go back to the default webhook", undefined, webhookRecord, {
        responses: notOnDefault,
      }),
    },
    "/webhooks/{id}/enable": {
      post: write("Enable: the webhook takes its event kinds from the default", emptyBody, webhookRecord, {
        responses: notOnDefault,
      }),
    },
    "/webhooks/{id}/disable": {
      post: write("Disable: its event kinds fall back to the default webhook", emptyBody, webhookRecord, {
        responses: notOnDefault,
      }),
    },
    "/webhooks/{id}/secret": {
      get: read(
        "The webhook's signing key, also as its Standard Webhooks secret (a restricted key needs the webhook-secrets permission)",
        signingKeyRecord,
      ),
    },
    "/webhooks/{id}/secret/roll": {
      post: write(
        "Replace the signing key (the given one, or a generated one) and return it; the old key still signs webhook-signature for 24 h",
        rollSecretSchema.strict(),
        signingKeyRecord,
      ),
    },
  };
}

export function eventPaths(): Paths {
  return {
    "/events": {
      get: list("List events (filter on event, resource or its alias resourceId, status, createdAt)", eventRecord),
    },
    "/events/{id}": { get: read("An event with its payload and every delivery attempt", eventDetailRecord) },
    "/events/{id}/retry": {
      post: write("Send the event again now to every webhook it was routed to", emptyBody, eventRetriedRecord),
    },
  };
}
