/** The bill-service's operations (services/bill-service/src/http). The body is the contracts' zod schema. */
import { z } from "zod";
import { billPaymentRequestSchema } from "@cardhold/contracts";
import { billPaymentRequest, payment } from "./examples";
import { list, one, operation, read, write } from "./operations";
import { countTotal, listParameters } from "./parameters";
import {
  billCategoryRecord,
  billPaymentRecord,
  billProductRecord,
  billValidationRecord,
  paymentRecord,
} from "./records/bills";
import { error } from "./responses";
import { page, ref, success, type Paths } from "./schema";

const billErrors = {
  "400": error("BadRequest", "Invalid body; the product's inputs are checked too and listed as `inputs.<name>`"),
  "404": error("NotFound", "Unknown product or customer"),
  "422": error("StateConflict", "The customer is not active"),
  "502": error("ServerError", "biller-unavailable: the biller did not answer the account lookup; try again"),
};

function paymentPaths(): Paths {
  return {
    "/payments/bill": {
      post: operation({
        summary: "Pay a bill",
        description:
          "Debits amount + fee, pays the biller, refunds if the biller fails. Waits up to about 8 s for the outcome.",
        body: billPaymentRequestSchema,
        bodyExample: billPaymentRequest,
        status: "201",
        returns: "The payment, final (successful or failed)",
        schema: one(billPaymentRecord),
        example: { code: "success", data: payment },
        responses: {
          "202": {
            description:
              "Still under way (e.g. pending at the biller); a payment.bill.completed or payment.bill.failed event follows",
            content: { "application/json": { schema: success(ref(billPaymentRecord), "request-accepted") } },
          },
          ...billErrors,
        },
      }),
    },
    "/payments/bill/validate": {
      post: write(
        "Check a bill payment without moving money: price, fee, total and the account holder's name",
        billPaymentRequestSchema,
        billValidationRecord,
        {
          returns: "What the payment would be",
          bodyExample: billPaymentRequest,
          responses: billErrors,
        },
      ),
    },
    "/payments": {
      get: list("List payments: bill payments and payouts (type pay-out)", paymentRecord, ["customer"]),
    },
    "/payments/{id}": { get: read("Retrieve a payment: a bill payment or a payout", paymentRecord) },
    ...paymentExtraPaths(),
  };
}

/** The `{}` body of the payment actions (services/bill-service/src/payments/no-options-body.ts). */
const noOptions = z.object({}).describe("No options: send `{}` (a missing body is taken as `{}`)");

/** services/bill-service/src/http/payment-extras-routes.ts */
function paymentExtraPaths(): Paths {
  return {
    "/payments/{id}/generate/pdf": {
      get: {
        summary: "A payment's receipt as PDF",
        description:
          "One A4 page: status (and failure reason), amount, fee and total formatted from minor units (`NGN " +
          "1,500.00`), product, account number and name, the biller's output (e.g. token) — for a payout the bank, " +
          "beneficiary, sender, narration and session id —, references, ids and dates. " +
          "The document's title is `Payment receipt <id>`; the same payment always gives the same bytes.",
        responses: {
          "200": {
            description: "The PDF, as an attachment named `<id>.pdf`",
            headers: {
              "Content-Disposition": {
                description: '`attachment; filename="p.….pdf"`',
                schema: { type: "string" },
              },
            },
            content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
          },
        },
      },
    },
    "/payments/{id}/requeue": {
      post: operation({
        summary: "Retry a failed payment",
        description:
          "A new payment with the failed one's product, inputs, customer, debit source and metadata (no reference), " +
          "debited and paid afresh at today's fee: its `methodData.requeuedFrom` names the failed payment, whose " +
          "`methodData.requeuedAs` names it. A payment is requeued once: asking again answers the same retry, and " +
          "nothing is debited twice. Answers as POST /payments/bill does.",
        body: noOptions,
        bodyExample: {},
        status: "201",
        returns: "The retry, final (successful or failed)",
        schema: one(billPaymentRecord),
        responses: {
          "202": {
            description: "The retry is still under way; a payment.bill.completed or payment.bill.failed event follows",
            content: { "application/json": { schema: success(ref(billPaymentRecord), "request-accepted") } },
          },
          "422": error(
            "StateConflict",
            "invalid-state: the payment did not fail, or its customer is no longer active; payment-not-retryable: " +
              "its named debit account was unknown or in another currency, which a retry meets again, or it is a " +
              "payout (send POST /payments/payouts again)",
          ),
          "400": billErrors["400"],
          "502": billErrors["502"],
        },
      }),
    },
    "/payments/{id}/resend-events/payment-completed": {
      post: write("Send a successful payment's completion event again", noOptions, paymentRecord, {
        description:
          "A new `payment.bill.completed` event (a payout's: `payment.payout.completed`; a new event id, listed in " +
          "the payment's `events`) with the payment " +
          "as it is now, delivered like the first. To send the very same event to a webhook again: POST " +
          "/events/{id}/retry.",
        bodyExample: {},
        returns: "The payment, its events listing the new one",
        responses: { "422": error("StateConflict", "invalid-state: the payment is not successful") },
      }),
    },
  };
}

function catalogPaths(): Paths {
  return {
    "/tools/bills/categories": {
      get: operation({
        summary: "Bill categories",
        parameters: [countTotal],
        returns: "Every category",
        schema: page(ref(billCategoryRecord)),
      }),
    },
    "/tools/bills/products": {
      get: operation({
        summary: "Bill products: their inputs, price or amount bounds, fee and outputs",
        description:
          "The list query language as on every list (fields: id, name, category, biller, billerName, currency, price, fee, inputs, accountInput, output). The plain parameters `category`, `currency` and `biller` (e.g. `?category=electricity`) are still taken, as fixed filters.",
        parameters: listParameters(),
        returns: "A page of the matching products, newest first unless sorted",
        schema: page(ref(billProductRecord)),
      }),
    },
    "/tools/bills/products/{id}": { get: read("One bill product", billProductRecord) },
  };
}

export const billPaths = (): Paths => ({ ...paymentPaths(), ...catalogPaths() });
