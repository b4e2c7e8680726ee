import { z } from "zod";
import { customerRecordSchema, customerRequestSchema, errorBodySchema, listOf, successOf } from "@cardhold/contracts";
import { createBusinessSchema, createKeySchema } from "../businesses";

type Json = Record<string, unknown>;

const requestSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
const responseSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Json;

const jsonBody = (schema: Json) => ({ required: true, content: { "application/json": { schema } } });
const jsonResponse = (description: string, schema: Json) => ({ description, content: { "application/json": { schema } } });

const errorResponse = (description: string) => jsonResponse(description, responseSchema(errorBodySchema));
const commonErrors = {
  "400": errorResponse("Invalid input; `errors` lists every bad field"),
  "401": errorResponse("Missing or invalid secret key"),
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
          summary: "Create a business with its default webhook; answers with a test key shown once",
          security: [{ operatorToken: [] }],
          requestBody: jsonBody(requestSchema(createBusinessSchema)),
          responses: { "201": { description: "The business and its test key" }, ...commonErrors },
        },
      },
      "/admin/businesses/{id}/keys": {
        post: {
          summary: "Create another secret key (test or live) for a business",
          security: [{ operatorToken: [] }],
          parameters: [idParameter],
          requestBody: jsonBody(requestSchema(createKeySchema)),
          responses: { "201": { description: "The key, shown once" }, ...commonErrors, "404": errorResponse("Unknown business") },
        },
      },
    },
  };
}
