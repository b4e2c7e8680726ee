/**
 * The OpenAPI 3.1 `webhooks`: every event kind the platform sends (contracts' EVENT_KINDS), as the event-dispatcher
 * delivers it: a POST of the producer's envelope (contracts' eventEnvelopeSchema) with `mode` added, signed. The data
 * is the record the producer put in: the engine's authorization, transaction or dispute, the bill-service's payment.
 */
import { z } from "zod";
import {
  eventEnvelopeSchema,
  modeSchema,
  WEBHOOK_TEST_MESSAGE,
  webhookTestDataSchema,
  type EventKind,
} from "@cardhold/contracts";
import * as ex from "./examples";
import { billPaymentRecord, payoutRecord } from "./records/bills";
import { failedPayout, payout } from "./payout-paths";
import { authorizationRecord, transactionRecord } from "./records/authorizations";
import { disputeRecord } from "./records/disputes";
import { dispute } from "./dispute-paths";
import { requestRecord } from "./records/requests";
import { completedRequest, failedRequest } from "./request-paths";
import { completedPaymentRequest, paymentRequest } from "./payment-request-paths";
import { paymentRequestRecord, refundedPaymentRequestRecord } from "./records/payment-requests";
import { named, ref, type Json } from "./schema";
import { WEBHOOK_TAG } from "./tags";
import { acknowledged, closedAnswers, requestAnswers, SUCCESS_ACK, updateAnswers } from "./webhook-answers";

interface Delivery {
  summary: string;
  description: string;
  data: z.ZodType;
  responses: () => Json;
  examples: Record<string, { summary: string; data: unknown }>;
}

const DECISION = "A decision event: sent once, at once; the answer is due within 4 seconds. ";
const NOTIFICATION =
  "A notification: sent until the receiver answers HTTP 200, so it can arrive more than once (the id in metadata.event stays the same). ";

const authorizationWith = (...status: [string, ...string[]]) => authorizationRecord.extend({ status: z.enum(status) });
const paymentWith = (status: string) => billPaymentRecord.extend({ status: z.literal(status) });
const payoutWith = (status: string) => payoutRecord.extend({ status: z.literal(status) });

const failedPayment = {
  ...ex.payment,
  status: "failed",
  account: null,
  failureReason: "insufficient-funds",
  methodData: { ...ex.payment.methodData, billerReference: null, output: null },
};

/** A dispute's event: the dispute record in the status it reached. */
function disputeDelivery(status: string, summary: string, detail: string): Delivery {
  return {
    summary,
    description: `${NOTIFICATION}${detail}`,
    data: disputeRecord.extend({ status: z.literal(status) }),
    responses: () => acknowledged("The body is not read."),
    examples: { [status]: { summary, data: { ...dispute, status } } },
  };
}

export const DELIVERIES: Record<EventKind, Delivery> = {
  "card.authorization.request": {
    summary: "Approve or decline a card authorization",
    description: `${DECISION}After the platform's own checks passed (and, for a capture, the funds were held), the network asks: a check for the card's balance and holder name, or a capture (a debit). A capture with partialApprovalAllowed true may be approved for less (an approve answer with a smaller amount).`,
    data: authorizationWith("pending"),
    responses: requestAnswers,
    examples: {
      capture: { summary: "A capture", data: ex.pendingCapture },
      check: { summary: "A check", data: ex.pendingCheck },
    },
  },
  "card.authorization.update": {
    summary: "An approved capture's amount changed, or it was reversed",
    description: `status pending: the network changed the amount; ${DECISION.toLowerCase()}status reversed: the network reversed it and the amount went back to the settlement balance; ${NOTIFICATION.toLowerCase()}`,
    data: authorizationWith("pending", "reversed"),
    responses: updateAnswers,
    examples: {
      amountChange: {
        summary: "An amount change",
        data: { ...ex.approvedCapture, status: "pending", amount: 450_000, reserved: false },
      },
      reversal: { summary: "A reversal", data: { ...ex.approvedCapture, status: "reversed" } },
    },
  },
  "card.authorization.closed": {
    summary: "An authorization's outcome",
    description: `${NOTIFICATION}approved: debit what you locked (amount: what was approved, requestedAmount: what was asked); declined: release it. Also sent when the platform decided by itself (decisionType system-response), or stand-in rules did because no usable answer came in time (decisionType stand-in, with standInRule and standInSource: the program's rules, or the webhook's): reconcile with what you locked.`,
    data: authorizationWith("approved", "declined"),
    responses: closedAnswers,
    examples: { approved: { summary: "Approved by your answer", data: ex.approvedCapture } },
  },
  "card.transaction.created": {
    summary: "Money moved for an authorization",
    description: `${NOTIFICATION}A capture, an adjustment after an amount change, or a reversal.`,
    data: transactionRecord,
    responses: () =>
      acknowledged(
        'The reference receiver answers {"code": "success"}; the platform reads only the status.',
        SUCCESS_ACK,
      ),
    examples: { capture: { summary: "A capture", data: ex.transaction } },
  },
  "dispute.created": disputeDelivery(
    "open",
    "A dispute was opened (POST /disputes)",
    "Its provisional credit, if the program gives one, is already on the cardholder's account.",
  ),
  "dispute.updated": disputeDelivery(
    "open",
    "A dispute's evidence changed (PUT /disputes/{id})",
    "Its text, documents or user changed; it is still open.",
  ),
  "dispute.won": disputeDelivery(
    "won",
    "The network decided a dispute for the cardholder",
    "A provisional credit stands; without one, the amount was credited now.",
  ),
  "dispute.lost": disputeDelivery(
    "lost",
    "The network decided a dispute against the cardholder",
    "A provisional credit was taken back, as far as the account's available balance covered it (the rest is owed).",
  ),
  "dispute.closed": disputeDelivery(
    "closed",
    "A dispute was withdrawn (PUT /disputes/{id}/close)",
    "A provisional credit was taken back, as far as the account's available balance covered it (the rest is owed).",
  ),
  "payment.bill.completed": {
    summary: "A bill payment succeeded",
    description: `${NOTIFICATION}Sent for every bill payment that succeeds, also one already answered 201.`,
    data: paymentWith("successful"),
    responses: () => acknowledged("The body is not read."),
    examples: { airtime: { summary: "Airtime bought", data: ex.payment } },
  },
  "payment.bill.failed": {
    summary: "A bill payment failed (and was refunded if it had been debited)",
    description: `${NOTIFICATION}failureReason says why.`,
    data: paymentWith("failed"),
    responses: () => acknowledged("The body is not read."),
    examples: { insufficientFunds: { summary: "The debit failed", data: failedPayment } },
  },
  "payment.payout.completed": {
    summary: "A payout reached the beneficiary's bank account",
    description: `${NOTIFICATION}Sent for every payout the bank rail credited, also one already answered 201.`,
    data: payoutWith("successful"),
    responses: () => acknowledged("The body is not read."),
    examples: { credited: { summary: "Credited", data: payout } },
  },
  "payment.payout.failed": {
    summary: "A payout failed (and was refunded if it had been debited)",
    description: `${NOTIFICATION}failureReason says why: the ledger's (insufficient-funds …) or the rail's (bank-declined).`,
    data: payoutWith("failed"),
    responses: () => acknowledged("The body is not read."),
    examples: { declined: { summary: "The bank declined the credit", data: failedPayout } },
  },
  "payment-request.completed": {
    summary: "A payment request was paid",
    description: `${NOTIFICATION}Exactly its amount was paid in: the money is in its account, and its virtual account is closed.`,
    data: paymentRequestRecord.extend({ status: z.literal("completed") }),
    responses: () => acknowledged("The body is not read."),
    examples: { paid: { summary: "Paid in full", data: completedPaymentRequest } },
  },
  "payment-request.payment-refunded": {
    summary: "A pay-in to a payment request's account was sent back to its payer",
    description: `${NOTIFICATION}refund.reason wrong-amount: not the amount asked (the request stays pending); already-completed: the request was paid already.`,
    data: refundedPaymentRequestRecord,
    responses: () => acknowledged("The body is not read."),
    examples: {
      wrongAmount: {
        summary: "Less than the amount asked",
        data: {
          ...paymentRequest,
          refundedPayments: 1,
          refund: { amount: 2_000_000, reason: "wrong-amount", refundedAt: "2025-03-21T10:20:03.000Z" },
        },
      },
    },
  },
  "request.completed": {
    summary: "A delayed request (answered 202 request-accepted) got its final answer",
    description: `${NOTIFICATION}status completed: the service answered 2xx; failed: any other answer, or none (503 request-interrupted: its gateway stopped first). The same record as GET /requests/{id}.`,
    data: requestRecord.extend({ status: z.enum(["completed", "failed"]) }),
    responses: () => acknowledged("The body is not read."),
    examples: {
      completed: { summary: "A card was created", data: completedRequest },
      failed: { summary: "The service was unavailable", data: failedRequest },
    },
  },
  "webhook.test": {
    summary: "A test event you sent (POST /webhooks/{id}/test)",
    description: `${NOTIFICATION}Sent to the webhook the test names, whatever its status and the kinds it names. Check its signature as any event's and answer HTTP 200.`,
    data: webhookTestDataSchema,
    responses: () => acknowledged("The body is not read."),
    examples: {
      test: { summary: "A test", data: { webhookId: ex.IDS.webhook, message: WEBHOOK_TEST_MESSAGE } },
    },
  },
};

const envelopeName = (kind: string) => `${kind.replace(/(^|\.)(\w)/g, (_, _dot, c: string) => c.toUpperCase())}Event`;

const envelopeOf = (kind: EventKind, data: z.ZodType) =>
  named(
    envelopeName(kind),
    eventEnvelopeSchema.extend({
      event: z.literal(kind),
      data,
      mode: modeSchema.describe("The mode the event belongs to; that mode's webhook received it and its key signed it"),
    }),
  );

const ENVELOPES = Object.fromEntries(
  Object.entries(DELIVERIES).map(([kind, d]) => [kind, envelopeOf(kind as EventKind, d.data)]),
);

/** The body a webhook receives for `kind` with `data`. */
export const envelopeExample = (kind: string, data: unknown) => ({
  event: kind,
  data,
  metadata: { sentAt: "2025-03-14T18:22:51.120Z", event: ex.IDS.event },
  mode: "test",
});

const HEADERS: Json[] = [
  {
    name: "Service-Signature",
    in: "header",
    required: true,
    description:
      "Hex HMAC-SHA512 of the raw body, keyed with the webhook's signing key (GET /webhooks/{id}/secret). Check it on the exact bytes before parsing. The same value also comes under each name in the webhook's signatureHeaders (e.g. Acme-Signature), for receivers that read it there.",
    schema: { type: "string", pattern: "^[0-9a-f]{128}$" },
  },
  {
    name: "X-Cardhold-Event-Id",
    in: "header",
    required: true,
    description: "The event id, as in metadata.event",
    schema: { type: "string" },
  },
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description:
      "Standard Webhooks (standardwebhooks.com): the event id, as in metadata.event; the same on every attempt of the event, so use it to spot a retry.",
    schema: { type: "string" },
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description:
      "Standard Webhooks: when this attempt was sent, in seconds since the epoch (each attempt has its own). Refuse one more than 5 minutes from your clock.",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "Standard Webhooks: v1, + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the bytes of the webhook's standardWebhooksSecret (GET /webhooks/{id}/secret: whsec_ + base64 of the signing key's UTF-8 bytes); the specification's libraries verify it with that secret. For 24 h after a key roll it holds two space-separated signatures, the new key's and the old key's: any one that verifies will do.",
    schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$" },
  },
];

function webhookOperation(kind: EventKind, d: Delivery): Json {
  const examples = Object.fromEntries(
    Object.entries(d.examples).map(([name, e]) => [name, { summary: e.summary, value: envelopeExample(kind, e.data) }]),
  );
  return {
    post: {
      tags: [WEBHOOK_TAG],
      summary: d.summary,
      description: d.description,
      security: [],
      parameters: HEADERS,
      requestBody: { required: true, content: { "application/json": { schema: ref(ENVELOPES[kind]!), examples } } },
      responses: d.responses(),
    },
  };
}

export function webhooks(): Json {
  return Object.fromEntries(
    Object.entries(DELIVERIES).map(([kind, d]) => [kind, webhookOperation(kind as EventKind, d)]),
  );
}
