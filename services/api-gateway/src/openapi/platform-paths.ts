/** Customers (customer-service), and the gateway's own operations: the request log and the operator's admin. */
import { customerRequestSchema } from "@cardhold/contracts";
import { createBusinessSchema, createKeySchema, updateKeySchema } from "../businesses";
import { createBillingSchema, updateBillingSchema } from "../domain/billing";
import { rateLimitOverrideSchema } from "../http/rate-limit-admin-routes";
import { customer, customerRequest } from "./examples";
import { list, one, operation, read, write } from "./operations";
import {
  apiKeyRecord,
  createdApiKeyRecord,
  createdBusinessRecord,
  customerRecord,
  requestLogRecord,
} from "./records/platform";
import { rateLimitsRecord } from "./records/rate-limits";
import { billingRecord } from "./records/requests";
import { error } from "./responses";
import { ref, success, theRecord, type Paths } from "./schema";

export function customerPaths(): Paths {
  const referenceTaken = { "409": error("Conflict", "The reference is already used") };
  return {
    "/customers": {
      post: write("Create a customer", customerRequestSchema, customerRecord, {
        status: "201",
        bodyExample: customerRequest,
        example: { code: "success", data: customer },
        responses: referenceTaken,
      }),
      get: list("List customers", customerRecord),
    },
    "/customers/{id}": {
      get: read("Retrieve a customer", customerRecord),
      put: write("Update a customer (the same body as create)", customerRequestSchema, customerRecord, {
        responses: referenceTaken,
      }),
    },
  };
}

const operator = [{ operatorToken: [] }];

export function gatewayPaths(): Paths {
  return {
    "/logs": { get: list("List this business's API requests in this mode", requestLogRecord, ["apiKey"]) },
    "/admin/businesses": {
      post: write(
        "Create a business with its default webhooks; answers with a test key, shown once",
        createBusinessSchema,
        createdBusinessRecord,
        {
          status: "201",
          security: operator,
          description:
            "signingKey (generated when absent) is the test-mode default webhook's key; the live default gets a key of its own, " +
            "read with a live key (GET /webhooks/{id}/secret).",
        },
      ),
    },
    "/admin/businesses/{id}/keys": {
      get: operation({
        summary: "List a business's secret keys, newest first, revoked ones included (never the secret or its hash)",
        security: operator,
        returns: "The keys",
        schema: success({ type: "array", items: ref(apiKeyRecord) }),
      }),
      post: write(
        "Create another secret key (test or live), full access or restricted to permissions",
        createKeySchema,
        createdApiKeyRecord,
        {
          status: "201",
          security: operator,
          description:
            "permissions: read (GET except secrets), write (every other method), card-secrets (GET /cards/{id}/secrets), " +
            "webhook-secrets (GET /webhooks/{id}/secret). Leave it out for a full-access key.",
        },
      ),
    },
    "/admin/businesses/{id}/rate-limits": {
      get: operation({
        summary: "Show the rate limits a business's requests are held to, and whether each is its own or the default",
        security: operator,
        returns: theRecord(rateLimitsRecord),
        schema: one(rateLimitsRecord),
      }),
      put: write(
        "Set a business's own rate limits; a policy left out keeps the default",
        rateLimitOverrideSchema,
        rateLimitsRecord,
        {
          security: operator,
          description:
            "Applies on this gateway at once and on every other gateway instance within a second. Simulation endpoints " +
            "(the card network's side) are never held to these limits.",
        },
      ),
      delete: write("Restore the default rate limits for a business", undefined, rateLimitsRecord, {
        security: operator,
      }),
    },
    "/admin/businesses/{id}/billings": {
      post: write(
        "Record a charge to a business (pending until marked paid or void)",
        createBillingSchema,
        billingRecord,
        {
          status: "201",
          security: operator,
          description: "The business reads it with a key of its mode (default live): GET /billings.",
        },
      ),
    },
    "/admin/businesses/{id}/billings/{billingId}": {
      patch: write(
        "Mark a pending charge paid or void (asking again for its status changes nothing)",
        updateBillingSchema,
        billingRecord,
        {
          security: operator,
          responses: { "422": error("StateConflict", "The charge is already paid or void") },
        },
      ),
    },
    "/admin/businesses/{id}/keys/{keyId}": {
      patch: write("Turn a key's delayed requests on or off", updateKeySchema, apiKeyRecord, {
        security: operator,
        description:
          "On: a write not answered within DELAYED_REQUEST_AFTER_MS (10 s by default) is answered 202 request-accepted " +
          "(GET /requests/{id}). Off (the default): it waits for its answer or fails. Applies within a second.",
      }),
      delete: write(
        "Revoke a secret key (idempotent); it answers 401 on every gateway within a second",
        undefined,
        apiKeyRecord,
        { security: operator },
      ),
    },
  };
}
