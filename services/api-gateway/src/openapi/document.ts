import { z } from "zod";
import {
  createWebhookSchema,
  customerRecordSchema,
  customerRequestSchema,
  errorBodySchema,
  listOf,
  rollSecretSchema,
  successOf,
  updateWebhookSchema,
  webhookRecordSchema,
} from "@cardhold/contracts";
import { createBusinessSchema, createKeySchema } from "../businesses";
import { billPaths } from "./bill-paths";
import { cardPaths } from "./card-paths";

type Json = Record<string, unknown>;

const requestSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
const responseSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Json;

const jsonBody = (schema: Json) => ({ required: true, content: { "application/json": { schema } } });
const jsonResponse = (description: string, schema: Json) => ({ description, content: { "application/json": { schema } } });

const errorResponse = (description: string) => jsonResponse(description, responseSchema(errorBodySchema));
const commonErrors = {
  "400": errorResponse("Invalid input; `errors` lists every bad field"),
  "401": errorResponse("Missing or invalid secret key"),
  "403": errorResponse("A restricted key lacks the permission this request needs (named in the message)"),
};

const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" } };

const LIST_PARAMETERS = [
  ["limit", "Page size, default 20, at most 100."],
  ["sort", "Space-separated field names; `-` prefix for descending. Default newest first."],
  ["select", "Space-separated fields to include; `-field` excludes. Depth 1."],
  ["expand", "Space-separated relation paths (depth 2); `path:f1,f2` selects subfields."],
  ["filter", "Space-separated expressions `field|op|value` or shorthands (`field:value`, `field>N`, `field~text`…)."],
  ["or", "Expressions combined with OR."],
  ["nor", "Expressions combined with NOR."],
  ["and", "Expressions combined with AND."],
  ["before", "An item id: the page before it."],
  ["after", "An item id: the page after it."],
  ["countTotal", "Also return metadata.totalCount; the bare flag counts as true."],
].map(([name, description]) => ({ name, in: "query", required: false, description, schema: { type: "string" } }));

const emptyObject = { type: "object", additionalProperties: false, description: "{}" };

function webhookPaths(): Json {
  const webhook = jsonResponse("The webhook (never its signing key)", responseSchema(successOf(webhookRecordSchema)));
  const notFoundError = { "404": errorResponse("Unknown id") };
  const stateError = { "422": errorResponse("Not allowed on the default webhook") };
  const secret = jsonResponse("The signing key", { type: "object", properties: { code: { const: "success" }, data: { type: "object", properties: { signingKey: { type: "string" } } } } });
  return {
    "/webhooks": {
      post: { summary: "Create a webhook (status created: it takes effect once enabled)", requestBody: jsonBody(requestSchema(createWebhookSchema)), responses: { "201": webhook, ...commonErrors } },
      get: { summary: "List webhooks, the default one included", parameters: LIST_PARAMETERS, responses: { "200": jsonResponse("A page of webhooks", responseSchema(listOf(webhookRecordSchema))), ...commonErrors } },
    },
    "/webhooks/{id}": {
      get: { summary: "Retrieve a webhook", parameters: [idParameter], responses: { "200": webhook, ...notFoundError } },
      put: { summary: "Update a webhook (every field but the signing key)", parameters: [idParameter], requestBody: jsonBody(requestSchema(updateWebhookSchema)), responses: { "200": webhook, ...commonErrors, ...notFoundError, ...stateError } },
      delete: { summary: "Delete a webhook; its events go back to the default webhook", parameters: [idParameter], responses: { "200": webhook, ...notFoundError, ...stateError } },
    },
    "/webhooks/{id}/enable": { post: { summary: "Enable: the webhook takes its event kinds from the default", parameters: [idParameter], requestBody: jsonBody(emptyObject), responses: { "200": webhook, ...notFoundError, ...stateError } } },
    "/webhooks/{id}/disable": { post: { summary: "Disable: its event kinds fall back to the default webhook", parameters: [idParameter], requestBody: jsonBody(emptyObject), responses: { "200": webhook, ...notFoundError, ...stateError } } },
    "/webhooks/{id}/secret": { get: { summary: "The webhook's signing key", parameters: [idParameter], responses: { "200": secret, ...notFoundError } } },
    "/webhooks/{id}/secret/roll": { post: { summary: "Replace the signing key (given, or generated) and return it", parameters: [idParameter], requestBody: jsonBody(requestSchema(rollSecretSchema)), responses: { "200": secret, ...notFoundError } } },
    "/events": { get: { summary: "List events (filter by event kind, resource, status, createdAt)", parameters: LIST_PARAMETERS, responses: { "200": { description: "A page of events" }, ...commonErrors } } },
    "/events/{id}": { get: { summary: "An event with its payload and every delivery attempt", parameters: [idParameter], responses: { "200": { description: "The event" }, ...notFoundError } } },
    "/events/{id}/retry": { post: { summary: "Send the event again now", parameters: [idParameter], requestBody: jsonBody(emptyObject), responses: { "200": { description: "The event" }, ...notFoundError } } },
  };
}

/** The OpenAPI 3.1 document, built from the same zod schemas that validate requests. */
export function openApiDocument(): Json {
  const customer = responseSchema(successOf(customerRecordSchema));
  return {
    openapi: "3.1.0",
    info: {
      title: "Cardhold API",
      version: "0.1.0",
      description: "Card issuing and real-time card authorization. Authenticate with `Authorization: Bearer sk.<mode>.<secret>`.",
    },
    security: [{ secretKey: [] }],
    components: {
      securitySchemes: {
        secretKey: { type: "http", scheme: "bearer", description: "sk.test.… or sk.live.…" },
        operatorToken: { type: "apiKey", in: "header", name: "X-Operator-Token" },
      },
    },
    paths: {
      ...webhookPaths(),
      ...cardPaths(),
      ...billPaths(),
      "/customers": {
        post: {
          summary: "Create a customer",
          requestBody: jsonBody(requestSchema(customerRequestSchema)),
          responses: { "201": jsonResponse("The customer", customer), ...commonErrors, "409": errorResponse("Reference already used") },
        },
        get: {
          summary: "List customers",
          parameters: LIST_PARAMETERS,
          responses: { "200": jsonResponse("A page of customers", responseSchema(listOf(customerRecordSchema))), ...commonErrors },
        },
      },
      "/customers/{id}": {
        get: {
          summary: "Retrieve a customer",
          parameters: [idParameter],
          responses: { "200": jsonResponse("The customer", customer), "401": commonErrors["401"], "404": errorResponse("Unknown id") },
        },
        put: {
          summary: "Update a customer (same body as create)",
          parameters: [idParameter],
          requestBody: jsonBody(requestSchema(customerRequestSchema)),
          responses: { "200": jsonResponse("The customer", customer), ...commonErrors, "404": errorResponse("Unknown id"), "409": errorResponse("Reference already used") },
        },
      },
      "/logs": {
        get: {
          summary: "List the API request log (expandable: apiKey)",
          parameters: LIST_PARAMETERS,
          responses: { "200": { description: "A page of request log entries" }, ...commonErrors },
        },
      },
      "/admin/businesses": {
        post: {
          summary: "Create a business with its default webhooks; answers with a test key shown once",
          description:
            "signingKey (generated when absent) is the test-mode default webhook's key; the live default gets a key of its own, read with a live key (GET /webhooks/:id/secret).",
          security: [{ operatorToken: [] }],
          requestBody: jsonBody(requestSchema(createBusinessSchema)),
          responses: { "201": { description: "The business and its test key" }, ...commonErrors },
        },
      },
      "/admin/businesses/{id}/keys": {
        get: {
          summary: "List a business's secret keys (never the secret or its hash); permissions null is full access",
          security: [{ operatorToken: [] }],
          parameters: [idParameter],
          responses: { "200": { description: "The keys, newest first, revoked ones included" }, ...commonErrors, "404": errorResponse("Unknown business") },
        },
        post: {
          summary: "Create another secret key (test or live) for a business, full access or restricted to permissions",
          description: "permissions: read (GET except card secrets), write (every other method), card-secrets (GET /cards/:id/secrets).",
          security: [{ operatorToken: [] }],
          parameters: [idParameter],
          requestBody: jsonBody(requestSchema(createKeySchema)),
          responses: { "201": { description: "The key, shown once" }, ...commonErrors, "404": errorResponse("Unknown business") },
        },
      },
      "/admin/businesses/{id}/keys/{keyId}": {
        delete: {
          summary: "Revoke a secret key (idempotent); it answers 401 on every gateway within a second",
          security: [{ operatorToken: [] }],
          parameters: [idParameter, { name: "keyId", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "The revoked key" }, ...commonErrors, "404": errorResponse("Unknown business or key") },
        },
      },
    },
  };
}
