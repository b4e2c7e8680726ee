/**
 * The gateway's own resources beside the request log: delayed requests (GET /requests/{id}, and the 202 any write may
 * get) and billings (the operator's charges to the business).
 */
import { list, read } from "./operations";
import { billingRecord, requestRecord } from "./records/requests";
import { ref, success, type Json, type Paths } from "./schema";

const AT = "2025-03-14T18:22:51.000Z";
const DONE_AT = "2025-03-14T18:23:04.310Z";

export const processingRequest = {
  id: "req.2tXJoZ3mVbQ8rNcDy",
  object: "request",
  method: "POST",
  path: "/cards",
  status: "processing",
  statusCode: null,
  responseBody: null,
  createdAt: AT,
  completedAt: null,
};

/** A request.completed event's data. */
export const completedRequest = {
  ...processingRequest,
  status: "completed",
  statusCode: 201,
  responseBody: { code: "success", data: { id: "c.2tVghquVL5LxCkjB3", object: "card" } },
  completedAt: DONE_AT,
};

export const failedRequest = {
  ...processingRequest,
  status: "failed",
  statusCode: 503,
  responseBody: {
    statusCode: 503,
    code: "service-unavailable",
    message: "authorization-engine is unavailable, try again shortly",
  },
  completedAt: DONE_AT,
};

export const billing = {
  id: "bil.2tXJoZ9pLmQ4sWvBn",
  object: "billing",
  amount: 2_500_000,
  currency: "NGN",
  description: "Card maintenance, March 2025",
  period: { start: "2025-03-01", end: "2025-03-31" },
  status: "pending",
  createdAt: AT,
  updatedAt: AT,
};

/** The 202 a write may get instead of its answer (finish.ts adds it to every tenant write). */
export function requestAccepted(): Json {
  return {
    description:
      "Only with a key whose delayedRequests is on: the service had not answered within DELAYED_REQUEST_AFTER_MS " +
      "(10 s by default). The gateway keeps waiting: GET /requests/{id} (the x-request-id) tells the state, and a " +
      "request.completed event follows. With delayedRequests off, the request waits for its answer or fails.",
    headers: {
      "x-request-id": { description: "The request's id, for GET /requests/{id}", schema: { type: "string" } },
    },
    content: {
      "application/json": {
        schema: success(ref(requestRecord), "request-accepted"),
        example: { code: "request-accepted", data: processingRequest },
      },
    },
  };
}

export function requestPaths(): Paths {
  return {
    "/requests/{id}": {
      get: read("Retrieve a delayed request: its state and, once done, its answer", requestRecord, {
        description:
          "A write answered 202 request-accepted is kept here, under its x-request-id, for this business and mode. " +
          "A request still processing 5 minutes after it was made (its gateway stopped) fails with 503 " +
          "request-interrupted: it may or may not have taken effect.",
        example: { code: "success", data: completedRequest },
      }),
    },
    "/billings": {
      get: list("List the platform operator's charges to this business in this mode", billingRecord),
    },
    "/billings/{id}": {
      get: read("Retrieve a charge of the platform operator", billingRecord, {
        example: { code: "success", data: billing },
      }),
    },
  };
}
