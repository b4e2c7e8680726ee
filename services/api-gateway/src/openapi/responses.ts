/**
 * The error answers, as the platform's error handler writes them (packages/platform: errors.ts, http-app.ts) and
 * the list query language's exact bad-filter body (packages/query). Examples come from the same factories.
 */
import { z } from "zod";
import { errorBodySchema } from "@cardhold/contracts";
import { AppError, badRequest, conflict, forbidden, notFound, stateConflict, unauthorized } from "@cardhold/platform";
import { FILTER_FORMAT_ERROR, FILTER_FORMAT_MESSAGE } from "@cardhold/query";
import { named, ref, type Json } from "./schema";

const errorBody = named(
  "Error",
  errorBodySchema
    .extend({
      errorId: z.string().optional().describe("On a 500 or 503: the id the failure was logged under"),
    })
    .describe("Every error; `errors` lists each bad field of an invalid request"),
);

const filterFormatError = named(
  "FilterFormatError",
  z
    .object({
      statusCode: z.literal(400),
      message: z.literal(FILTER_FORMAT_MESSAGE),
    })
    .describe("The exact body for a filter, or, nor or and parameter that cannot be read"),
);

type Examples = Record<string, unknown>;

function errorResponse(description: string, examples: Examples, schema: Json = ref(errorBody), extra: Json = {}): Json {
  const byName = Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }]));
  return { description, ...extra, content: { "application/json": { schema, examples: byName } } };
}

const CARD = "c.2tVghquVL5LxCkjB3";

/** draft-ietf-httpapi-ratelimit-headers-10: on every answer of a limited operation (src/http/rate-limit.ts). */
export const RATE_LIMIT_HEADERS = {
  "Retry-After": { description: "On a 429: whole seconds until a request is admitted", schema: { type: "integer" } },
  "RateLimit-Policy": {
    description: 'The policies, requests (q) per w seconds: `"per-key";q=50;w=1, "per-business";q=100;w=1`',
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'What is left of each: r requests now, full again in t seconds: `"per-key";r=42;t=1, …`',
    schema: { type: "string" },
  },
};

export const ERROR_RESPONSES = {
  BadRequest: errorResponse(
    "Invalid input: a body field (each one listed in `errors`), unreadable JSON, or a list parameter",
    {
      invalidBody: badRequest("Invalid request body: reference, claims.individualInformation.email", [
        { path: "reference", message: "must not be empty" },
        { path: "claims.individualInformation.email", message: "must be an e-mail address" },
      ]).toBody(),
      invalidQuery: {
        statusCode: 400,
        code: "invalid-query",
        message: 'limit must be a whole number from 1 to 100, not "500"',
      },
      invalidFilter: FILTER_FORMAT_ERROR,
    },
    { anyOf: [ref(errorBody), ref(filterFormatError)] },
  ),
  Unauthorized: errorResponse("Missing or invalid secret key", { unauthorized: unauthorized().toBody() }),
  OperatorUnauthorized: errorResponse("Missing or wrong X-Operator-Token", {
    unauthorized: new AppError(401, "unauthorized", "A valid X-Operator-Token header is required").toBody(),
  }),
  Forbidden: errorResponse("A restricted key lacks the permission this request needs (named in the message)", {
    forbidden: forbidden("This API key lacks the 'write' permission needed for POST /cards").toBody(),
  }),
  NotFound: errorResponse("Unknown id (another business's ids, and the other mode's, are unknown too)", {
    notFound: notFound("Card", CARD).toBody(),
  }),
  Conflict: errorResponse("The reference is already used", {
    conflict: conflict('A customer with reference "user-2345" already exists').toBody(),
  }),
  PayloadTooLarge: errorResponse("The body is larger than the limit", {
    tooLarge: new AppError(413, "payload-too-large", "Request body is larger than the limit of 1mb").toBody(),
  }),
  UnsupportedMediaType: errorResponse("A Content-Encoding the platform does not read", {
    unsupported: new AppError(415, "unsupported-media-type", "Request body encoding is not supported").toBody(),
  }),
  StateConflict: errorResponse("Not allowed in the resource's current state", {
    invalidState: stateConflict(`Card ${CARD}: a terminated card cannot be activated`).toBody(),
  }),
  TooManyRequests: errorResponse(
    "Over the key's or the business's limit (token buckets; README, \"Limits\"): wait Retry-After seconds",
    {
      rateLimited: new AppError(429, "rate-limited", "Too many requests (per-key limit): try again in 1 s").toBody(),
    },
    ref(errorBody),
    { headers: RATE_LIMIT_HEADERS },
  ),
  ServerError: errorResponse(
    "500 internal-error (nothing internal is shown; errorId names the log entry) or 503 service-unavailable (try again)",
    {
      internal: {
        statusCode: 500,
        code: "internal-error",
        message: "Internal server error",
        errorId: "err.2tW3sESJQ4ZW9DKSG",
      },
      unavailable: {
        statusCode: 503,
        code: "service-unavailable",
        message: "authorization-engine is unavailable, try again shortly",
      },
    },
    ref(errorBody),
    {
      headers: {
        "Retry-After": {
          description: "Seconds to wait, when the database was unavailable",
          schema: { type: "integer" },
        },
      },
    },
  ),
} satisfies Record<string, Json>;

export type ErrorResponse = keyof typeof ERROR_RESPONSES;

/** A reference to a shared error answer, with a description of when this operation gives it. */
export const error = (name: ErrorResponse, description?: string): Json => ({
  $ref: `#/components/responses/${name}`,
  ...(description && { description }),
});
