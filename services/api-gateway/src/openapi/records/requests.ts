/** Delayed requests (src/delayed-requests.ts) and billings (src/billings.ts), as their stores' records write them. */
import { z } from "zod";
import { currencySchema } from "@cardhold/contracts";
import { BILLING_ID_PREFIX, BILLING_STATUSES } from "../../domain/billing";
import { REQUEST_STATUSES } from "../../domain/delayed-request";
import { named } from "../schema";
import { idOf, minorUnits, time } from "./common";

export const requestRecord = named(
  "Request",
  z.object({
    id: z.string().describe("The request id: the x-request-id header of its 202 answer"),
    object: z.literal("request"),
    method: z.string(),
    path: z.string(),
    status: z
      .enum(REQUEST_STATUSES)
      .describe("processing: still awaited; completed: answered 2xx; failed: any other answer, or none"),
    statusCode: z.number().int().nullable().describe("The final answer's HTTP status; null while processing"),
    responseBody: z
      .unknown()
      .describe(
        "The final answer's body, as it would have been sent; null while processing. A request whose gateway stopped " +
          "first fails with 503 request-interrupted: it may or may not have taken effect",
      ),
    createdAt: time,
    completedAt: time.nullable(),
  }),
);

export const billingRecord = named(
  "Billing",
  z.object({
    id: idOf(BILLING_ID_PREFIX, "Billing id"),
    object: z.literal("billing"),
    amount: minorUnits("What the operator charges"),
    currency: currencySchema,
    description: z.string(),
    period: z
      .object({ start: z.string().describe("YYYY-MM-DD"), end: z.string().describe("YYYY-MM-DD") })
      .nullable()
      .describe("The days the charge covers, both included"),
    status: z.enum(BILLING_STATUSES).describe("pending: owed; paid: settled; void: withdrawn"),
    createdAt: time,
    updatedAt: time,
  }),
);
