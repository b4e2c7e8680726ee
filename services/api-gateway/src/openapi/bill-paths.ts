/** The bill-service's operations (services/bill-service/src/http). The body is the contracts' zod schema. */
import { billPaymentRequestSchema } from "@cardhold/contracts";
import { billPaymentRequest, payment } from "./examples";
import { list, one, operation, read, write } from "./operations";
import { countTotal, listParameters } from "./parameters";
import { billCategoryRecord, billProductRecord, billValidationRecord, paymentRecord } from "./records/bills";
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
        schema: one(paymentRecord),
        example: { code: "success", data: payment },
        responses: {
          "202": {
            description:
              "Still under way (e.g. pending at the biller); a payment.bill.completed or payment.bill.failed event follows",
            content: { "application/json": { schema: success(ref(paymentRecord), "request-accepted") } },
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
    "/payments": { get: list("List payments", paymentRecord, ["customer"]) },
    "/payments/{id}": { get: read("Retrieve a payment", paymentRecord) },
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
