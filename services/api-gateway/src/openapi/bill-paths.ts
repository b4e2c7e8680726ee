/**
 * OpenAPI 3.1 path items of the bill-service's endpoints. The request body comes from the shared zod schema; the
 * records are described here in JSON Schema and mirror services/bill-service/src/domain/payment-record.ts and the
 * catalog (keep them in step).
 */
import { z } from "zod";
import { billPaymentRequestSchema } from "@cardhold/contracts";

type Json = Record<string, unknown>;

const jsonBody = (schema: Json) => ({ required: true, content: { "application/json": { schema } } });
const jsonResponse = (description: string, schema: Json) => ({ description, content: { "application/json": { schema } } });
const success = (data: Json, code = "success") => ({
  type: "object",
  required: ["code", "data"],
  properties: { code: { const: code }, data },
});
const list = (item: Json) => ({
  type: "object",
  required: ["code", "data", "metadata"],
  properties: {
    code: { const: "success" },
    data: { type: "array", items: item },
    metadata: { type: "object", required: ["hasMore"], properties: { hasMore: { type: "boolean" }, totalCount: { type: "integer" } } },
  },
});

const errorBody = {
  type: "object",
  required: ["statusCode", "code", "message"],
  properties: {
    statusCode: { type: "integer" },
    code: { type: "string" },
    message: { type: "string" },
    errors: { type: "array", items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } } },
  },
};
const error = (description: string) => jsonResponse(description, errorBody);

const id = (prefix: string, description: string) => ({ type: "string", pattern: `^${prefix.replace(".", "\\.")}[1-9A-HJ-NP-Za-km-z]{17}$`, description });
const minorUnits = (description: string) => ({ type: "integer", minimum: 0, description });
const nullable = (schema: Json) => ({ anyOf: [schema, { type: "null" }] });
const strings = { type: "object", additionalProperties: { type: "string" } };

const billPaymentRequest = z.toJSONSchema(billPaymentRequestSchema, { io: "input", unrepresentable: "any" }) as Json;

const payment = {
  type: "object",
  properties: {
    id: id("p.", "Payment id"),
    object: { const: "payment" },
    type: { const: "bill" },
    status: { enum: ["debiting", "processing", "refunding", "successful", "failed"] },
    amount: minorUnits("The bill amount"),
    currency: { enum: ["NGN", "USD"] },
    fees: minorUnits("Fee on top of the amount; the debit is amount + fees"),
    feeBreakdown: { type: "array", items: { type: "object", properties: { amount: { type: "integer" }, group: { type: "string" }, type: { type: "string" } } } },
    account: nullable({ type: "string", description: "The account debited, once the ledger answered" }),
    fundingSource: { type: "object", properties: { type: { const: "account" }, account: nullable({ type: "string" }) } },
    method: { const: "bill" },
    methodData: {
      type: "object",
      properties: {
        product: { type: "string" }, productName: { type: "string" }, category: { type: "string" }, biller: { type: "string" },
        inputs: strings, accountNumber: { type: "string" }, accountName: nullable({ type: "string" }),
        billerReference: nullable({ type: "string" }), output: nullable({ ...strings, description: "e.g. token and units of prepaid electricity" }),
      },
    },
    customer: nullable({ type: "string" }),
    reference: nullable({ type: "string" }),
    failureReason: nullable({ type: "string", description: "insufficient-funds, account-not-found, account-inactive, currency-mismatch, biller-declined" }),
    events: { type: "array", items: { type: "string" } },
    metadata: { type: "object" },
    createdAt: { type: "string", format: "date-time" },
    updatedAt: { type: "string", format: "date-time" },
  },
};

const validation = {
  type: "object",
  properties: {
    product: { type: "string" }, productName: { type: "string" }, category: { type: "string" }, biller: { type: "string" },
    currency: { enum: ["NGN", "USD"] }, amount: minorUnits("Bill amount"), fee: minorUnits("Fee"), total: minorUnits("amount + fee: what will be debited"),
    inputs: strings, accountNumber: { type: "string" }, accountName: { type: "string", description: "The account holder at the biller" },
    customer: nullable({ type: "string" }), customerName: nullable({ type: "string" }), debitSource: nullable({ type: "string" }),
  },
};

const category = { type: "object", properties: { id: { type: "string" }, object: { const: "bill.category" }, name: { type: "string" }, description: { type: "string" } } };
const product = {
  type: "object",
  properties: {
    id: id("bp.", "Product id"), object: { const: "bill.product" }, name: { type: "string" }, category: { type: "string" },
    biller: { type: "string" }, billerName: { type: "string" }, currency: { enum: ["NGN", "USD"] },
    price: nullable(minorUnits("Fixed price; null when the price is the amount input")),
    fee: { type: "object", properties: { type: { const: "flat" }, amount: { type: "integer" } } },
    inputs: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string" }, label: { type: "string" }, type: { enum: ["string", "amount"] }, required: { type: "boolean" },
          pattern: { type: "string" }, example: { type: "string" }, minAmount: { type: "integer" }, maxAmount: { type: "integer" },
        },
      },
    },
    accountInput: { type: "string", description: "The input the biller looks up (phone, meter, smartcard)" },
    output: { type: "array", items: { type: "object", properties: { name: { type: "string" }, description: { type: "string" } } } },
  },
};

const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" } };
const query = (name: string, description: string) => ({ name, in: "query", required: false, description, schema: { type: "string" } });
const LIST_PARAMETERS = [
  query("limit", "Page size, default 20, at most 100."),
  query("sort", "Space-separated field names; `-` prefix for descending. Default newest first."),
  query("select", "Space-separated fields to include; `-field` excludes. Depth 1."),
  query("expand", "`customer`: the customer record."),
  query("filter", "Expressions on id, status, amount, fees, currency, reference, customer, product, account, failureReason, methodData.<key>, metadata.<key>, createdAt, updatedAt."),
  query("or", "Expressions combined with OR."),
  query("nor", "Expressions combined with NOR."),
  query("and", "Expressions combined with AND."),
  query("before", "A payment id: the page before it."),
  query("after", "A payment id: the page after it."),
  query("countTotal", "Also return metadata.totalCount; the bare flag counts as true."),
];

const badInput = { "400": error("Invalid body; `errors` lists every bad field, inputs as `inputs.<name>`"), "401": error("Missing or invalid secret key") };
const billErrors = {
  ...badInput,
  "404": error("Unknown product or customer"),
  "422": error("The customer is not active"),
  "502": error("The biller did not answer the account lookup"),
};

export function billPaths(): Record<string, unknown> {
  const paymentResponse = jsonResponse("The payment, final (successful or failed)", success(payment));
  return {
    "/payments/bill": {
      post: {
        summary: "Pay a bill: debit amount + fee, pay the biller, refund if the biller fails; waits up to ~8 s for the outcome",
        requestBody: jsonBody(billPaymentRequest),
        responses: {
          "201": paymentResponse,
          "202": jsonResponse("Still under way (e.g. pending at the biller); a payment.bill.completed or payment.bill.failed event follows", success(payment, "request-accepted")),
          ...billErrors,
        },
      },
    },
    "/payments/bill/validate": {
      post: {
        summary: "Check a bill payment without moving money: price, fee, total and the account holder's name",
        requestBody: jsonBody(billPaymentRequest),
        responses: { "200": jsonResponse("What the payment would be", success(validation)), ...billErrors },
      },
    },
    "/payments": {
      get: { summary: "List payments", parameters: LIST_PARAMETERS, responses: { "200": jsonResponse("A page of payments", list(payment)), ...badInput } },
    },
    "/payments/{id}": {
      get: { summary: "Retrieve a payment", parameters: [idParameter], responses: { "200": jsonResponse("The payment", success(payment)), "404": error("Unknown id") } },
    },
    "/tools/bills/categories": {
      get: { summary: "Bill categories", responses: { "200": jsonResponse("Every category", list(category)) } },
    },
    "/tools/bills/products": {
      get: {
        summary: "Bill products: their inputs, price or amount bounds, fee and outputs",
        parameters: [query("category", "airtime, mobile-data, electricity or cable-tv"), query("currency", "NGN or USD"), query("biller", "A biller code, e.g. ikeja-electric"), query("countTotal", "Also return metadata.totalCount")],
        responses: { "200": jsonResponse("The matching products", list(product)), "400": error("An unknown parameter or value") },
      },
    },
    "/tools/bills/products/{id}": {
      get: { summary: "One bill product", parameters: [idParameter], responses: { "200": jsonResponse("The product", success(product)), "404": error("Unknown product") } },
    },
  };
}
