/** Payouts (services/bill-service/src/payouts): bank transfers. The body is the contracts' zod schema. */
import { payoutRequestSchema } from "@cardhold/contracts";
import { IDS } from "./examples";
import { list, one, operation } from "./operations";
import { payoutRecord } from "./records/bills";
import { error } from "./responses";
import { ref, success, type Paths } from "./schema";

const stamps = { createdAt: "2025-03-14T18:22:51.000Z", updatedAt: "2025-03-14T18:22:53.204Z" };

export const payoutRequest = {
  method: "bank-transfer",
  options: { accountNumber: "0123456785", bankCode: "000013", narration: "Invoice 7" },
  currency: "NGN",
  amount: 150_000,
  customer: IDS.customer,
  reference: "payout-7",
  metadata: { invoice: 7 },
};

export const payout = {
  id: IDS.payment,
  object: "payment",
  type: "pay-out",
  status: "successful",
  amount: 150_000,
  currency: "NGN",
  fees: 2_500,
  feeBreakdown: [{ amount: 2_500, group: "bank-transfer", type: "flat", fee: "fee.2tVZhC8kRmP3xQwEy" }],
  account: IDS.settlement,
  fundingSource: IDS.settlement,
  method: "bank-transfer",
  methodData: {
    bankTransfer: {
      accountNumber: "0123456785",
      bankCode: "000013",
      bankName: "Guaranty Trust Bank",
      accountName: "Fatima Bello",
      sourceAccountName: "Ciroma Adekunle",
      narration: "Invoice 7",
      note: null,
      sessionId: "999999418203957712064339185270",
    },
  },
  customer: IDS.customer,
  reference: "payout-7",
  failureReason: null,
  events: [IDS.event],
  metadata: { invoice: 7 },
  ...stamps,
};

export const failedPayout = { ...payout, status: "failed", failureReason: "bank-declined" };

const DESCRIPTION =
  "A bank transfer to a Nigerian bank account (NIBSS Instant Payment), made as a bill payment is: the payout and its " +
  "debit of amount + fee commit together; once debited it is sent to the bank rail, asked about again while pending " +
  "or unanswered (never sent twice: the rail is idempotent by the payout id), and refunded if the rail fails it. " +
  "Only `bank-transfer` in NGN is paid out. The debit comes from debitSource, else the configured payOutAccount, " +
  "else the default account; the fee is the named `fee`, else the configured fees.bankTransfer, else none. " +
  "accountName is the bank's name enquiry's (as GET /tools/banks/resolve). A reference names one payment per " +
  "business and mode: sending it again answers the first payout and moves nothing. Waits up to about 8 s for the " +
  "outcome. Test keys use the sandbox rail: digits 6–9 of the account number `2222` answer slower than the timeout, " +
  "`3333` pending then credited, `4444` pending then failed, `5555` failed (bank-declined), `0000` no such account " +
  "(404), `1111` the bank does not answer (503); any other valid number is credited at once.";

export function payoutPaths(): Paths {
  return {
    "/payments/payouts": {
      post: operation({
        summary: "Pay out to a bank account",
        description: DESCRIPTION,
        body: payoutRequestSchema,
        bodyExample: payoutRequest,
        status: "201",
        returns: "The payout, final (successful, or failed and refunded)",
        schema: one(payoutRecord),
        example: { code: "success", data: payout },
        responses: {
          "202": {
            description:
              "Still under way (e.g. pending at the bank rail); a payment.payout.completed or payment.payout.failed " +
              "event follows",
            content: { "application/json": { schema: success(ref(payoutRecord), "request-accepted") } },
          },
          "400": error(
            "BadRequest",
            "Invalid body; a bank transfer's account number (10 digits, its check digit right at the bank) and bank " +
              "code (a bank of GET /tools/banks) are checked as options.accountNumber and options.bankCode; a named " +
              "fee in another currency as fee",
          ),
          "403": error(
            "Forbidden",
            "bank-rail-not-configured: a live key, and no live bank rail is configured (test keys use the sandbox " +
              "rail); bank-provider-not-configured: no live name enquiry; or a restricted key lacks the permission",
          ),
          "404": error("NotFound", "account-not-found: the bank has no such account; unknown customer or fee"),
          "409": error("Conflict", "The reference names a bill payment"),
          "422": error(
            "StateConflict",
            "method-not-supported (only bank-transfer), currency-not-supported (a bank transfer is in NGN), or the " +
              "customer is not active",
          ),
          "503": {
            description:
              "bank-unavailable: the bank did not answer the name enquiry; try again after Retry-After seconds",
            headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } },
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        },
      }),
      get: list("List payouts", payoutRecord, ["customer"], {
        description: "GET /payments with the filter type:pay-out; the same query language.",
      }),
    },
  };
}
