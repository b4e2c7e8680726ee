/**
 * What a webhook answers to an event. The decision answers are the receiver SDK's own schemas (packages/receiver,
 * answers.ts: approve, approveCheck, decline); what the platform does with an answer, or without one, is the
 * authorization engine's (domain/receiver-answer.ts) and the event-dispatcher's (delivery-policy, retry-schedule).
 */
import { z } from "zod";
import {
  answerSchema,
  approveSchema,
  checkAnswerSchema,
  declineSchema,
  INVALID_REQUEST,
  INVALID_SIGNATURE,
} from "@cardhold/receiver";
import { ANSWERS } from "./examples";
import { jsonSchema, named, ref, type Json } from "./schema";

named(
  "ApproveAnswer",
  approveSchema,
  "Approve. cardBalance and cardHolderName are for a check; amount is a partial approval (a capture whose request says partialApprovalAllowed, for less than asked: more, or less where not allowed, is not a usable answer); metadata is merged into the authorization's",
);
named("DeclineAnswer", declineSchema, "Decline with a code, stored as the authorization's declineReason");
const authorizationAnswer = named("AuthorizationAnswer", answerSchema, "The answer to a decision event");
const checkAnswer = named(
  "CheckAnswer",
  checkAnswerSchema,
  "The answer to a check: an approve without an integer cardBalance and a cardHolderName is invalid and counts as a decline",
);
const rejection = named(
  "ReceiverRejection",
  z.object({ error: z.enum([INVALID_SIGNATURE.error, INVALID_REQUEST.error]) }),
  "The reference receiver's answer to a bad Service-Signature, or to a body that is not an event it knows",
);

const NO_ANSWER =
  "No usable answer: none within 4 seconds, a connection error, another status, or a body that is not a valid answer. " +
  "The timeout default decides (the card program's, else the webhook's, else decline) as a system-response, statusReason " +
  "timeout-error, connection-error, webhook-error or invalid-response; for a capture with stand-in rules (the program's " +
  "authorization.standIn, else the webhook's standIn) the rules decide instead, as decisionType stand-in. A decision " +
  "event is not sent again.";

const SENT_AGAIN =
  "Anything but HTTP 200, or no answer within 10 seconds: sent again with growing delays (5 s up to 8 h, ±20 % jitter; a " +
  "Retry-After is honoured up to 1 h) for 3 days, then the event is marked failed; POST /events/{id}/retry sends it again.";

const examplesOf = (names: (keyof typeof ANSWERS)[]) => Object.fromEntries(names.map((name) => [name, ANSWERS[name]]));
const rejected = {
  "400": {
    description: "Rejected by the receiver (the reference receiver's bodies)",
    content: { "application/json": { schema: ref(rejection) } },
  },
};

const answered = (
  description: string,
  schema: Json,
  examples?: Record<string, unknown>,
  otherwise = NO_ANSWER,
): Json => ({
  "200": { description, content: { "application/json": { schema, ...(examples && { examples }) } } },
  ...rejected,
  default: { description: otherwise },
});

/** card.authorization.request: a check or a capture, decided by the answer. */
export const requestAnswers = () =>
  answered(
    "The decision, HTTP 2xx within 4 seconds. For a check (data.type check) approve with cardBalance and cardHolderName.",
    { anyOf: [ref(checkAnswer), ref(authorizationAnswer)] },
    examplesOf(["approveCheck", "approve", "decline"]),
  );

/** card.authorization.update: an amount change (pending) is a decision; a reversal is a notification. */
export const updateAnswers = () =>
  answered(
    "status pending: the decision on the new amount, within 4 seconds. status reversed: delivered; the reference receiver answers approve once it gave the funds back.",
    ref(authorizationAnswer),
    examplesOf(["approve", "decline"]),
    `status pending: ${NO_ANSWER} status reversed: ${SENT_AGAIN}`,
  );

/** card.authorization.closed: a notification; the reference receiver still answers with an AuthorizationAnswer. */
export const closedAnswers = () =>
  answered(
    "Delivered. The platform reads only the status; the reference receiver answers approve once it applied the outcome, or decline invalid-transaction / duplicate-transaction.",
    ref(authorizationAnswer),
    undefined,
    SENT_AGAIN,
  );

export const acknowledged = (description: string, schema: Json = {}) =>
  answered(`Delivered. ${description}`, schema, undefined, SENT_AGAIN);

export const SUCCESS_ACK = jsonSchema(z.object({ code: z.literal("success") }));
