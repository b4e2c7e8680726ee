/** Payment requests (services/authorization-engine, src/payment-requests/): one exact amount, paid into an account of its own. */
import { paymentRequestSchema } from "@cardhold/contracts";
import { IDS } from "./examples";
import { list, read, write } from "./operations";
import { paymentRequestRecord } from "./records/payment-requests";
import { error } from "./responses";
import type { Paths } from "./schema";

const AT = "2025-03-21T10:04:12.000Z";

export const paymentRequestBody = {
  method: "bank-transfer",
  options: { name: "Ciroma Adekunle - Order 2345", bank: "providus" },
  currency: "NGN",
  amount: 2_500_000,
  customer: IDS.customer,
  reference: "order-2345",
  metadata: { orderId: 2345 },
};

export const paymentRequest = {
  id: "preq.2tW9bK4pRn6ZsUv7D",
  object: "payment-request",
  ...paymentRequestBody,
  account: IDS.settlement,
  virtualAccount: "ac.2tW9bK4qSp7AtVw8E",
  bankAccount: {
    accountName: "Ciroma Adekunle - Order 2345",
    accountNumber: "7203918846",
    bankName: "Cardhold Sandbox Bank",
    bankCode: "000",
    partner: "cardhold-sandbox",
  },
  status: "pending",
  refundedPayments: 0,
  createdAt: AT,
  updatedAt: AT,
};

export const completedPaymentRequest = {
  ...paymentRequest,
  status: "completed",
  paidAt: "2025-03-21T10:31:55.000Z",
  paymentReference: "nip-000013250321103155",
  updatedAt: "2025-03-21T10:31:55.000Z",
};

const CREATE =
  "Opens a single-use bank account expecting one exact amount: a virtual account of its own (named `options.name`, " +
  "shown as `virtualAccount`) with a fresh 10-digit number (`bankAccount`), settling into `account` (default: your " +
  "default account in the currency). The first pay-in of exactly `amount` lands in `account`, completes the request " +
  "(payment-request.completed) and closes its account. Any other pay-in to it — a wrong amount, or any after it is " +
  "paid — goes straight back to the payer (payment-request.payment-refunded; a wrong amount leaves it pending). " +
  "`method` and `options.bank` are recorded as given: the account is at the platform's bank. In test mode, pay with " +
  "POST /simulation/payments/pay-in {accountNumber, amount}: its answer is the account the money landed in, or the " +
  "request's virtual account (at zero) when it went back.";

export function paymentRequestPaths(): Paths {
  return {
    "/payment-requests": {
      post: write("Request a payment", paymentRequestSchema, paymentRequestRecord, {
        status: "201",
        description: CREATE,
        bodyExample: paymentRequestBody,
        example: { code: "success", data: paymentRequest },
        responses: {
          "404": error("NotFound", "Unknown customer or account"),
          "409": error("Conflict", "A payment request with this reference already exists"),
          "422": error("StateConflict", "account is virtual, or in another currency"),
        },
      }),
      get: list("List payment requests", paymentRequestRecord, ["customer", "account", "virtualAccount"]),
    },
    "/payment-requests/{id}": {
      get: read("Retrieve a payment request", paymentRequestRecord, {
        example: { code: "success", data: completedPaymentRequest },
      }),
    },
  };
}
