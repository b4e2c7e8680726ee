/**
 * Card link and enrolment (services/authorization-engine/src/cards/card-links.ts, card-enrollments.ts) and the test-mode
 * card bureau that prints a physical program's cards.
 */
import { cardEnrollmentSchema, cardLinkSchema, printCardsSchema } from "@cardhold/contracts";
import * as examples from "./examples";
import { one, operation, write } from "./operations";
import { cardRecord } from "./records/cards";
import { cardEnrollmentRecord, printedCardRecord } from "./records/card-links";
import { error } from "./responses";
import { ref, success, type Json, type Paths } from "./schema";

const AT = "2025-03-14T18:22:51.000Z";

/** GET /cards/{id}: the card record, with its enrolments once it has any. */
export const cardWithEnrollments: Json = success({
  allOf: [
    ref(cardRecord),
    {
      type: "object",
      properties: {
        enrollments: {
          type: "array",
          items: ref(cardEnrollmentRecord),
          description: "Its SafeToken and 3-D Secure enrolments; absent when it has none",
        },
      },
    },
  ],
});

const linkRequest = {
  customer: examples.IDS.customer,
  reference: "card-0001",
  cardHolderName: "Ciroma Adekunle",
  fundingSource: {},
  controls: examples.cardRequest.controls,
  metadata: examples.cardRequest.metadata,
};

const LINK_DESCRIPTION =
  "Gives a card printed for a physical program (POST /simulation/card-programs/{id}/print-cards in test mode) to a " +
  "customer: it becomes an API card, inactive until activated with the CVV on its back. By id, or by PAN: a body " +
  "with `pan` (the number printed on the card) must name this card. fundingSource is an account id (`{}`, as the " +
  "original documents send it, names none): without one the card spends from its program's settlement account " +
  "(settlement-account programs) or an account of its own (card-account programs), which `depositChannels: " +
  '["bank-account"]` gives a deposit channel. Without a reference the card\'s id is its reference.';

function enrollPath(type: "safetoken" | "3ds", name: string): Paths[string] {
  const enrollment = {
    object: "card.enrollment",
    card: examples.IDS.card,
    type,
    phoneNumber: "+2348031234567",
    email: "ciroma@example.com",
    status: "enrolled",
    createdAt: AT,
    updatedAt: AT,
  };
  return {
    post: write(`Enrol an active card for ${name} one-time passwords`, cardEnrollmentSchema, cardEnrollmentRecord, {
      status: "201",
      description:
        "phoneNumber and email default, each, to the customer's. Enrolling again replaces them (answered 200).",
      bodyExample: { phoneNumber: "+2348031234567" },
      example: { code: "success", data: enrollment },
      responses: {
        "200": {
          description: "Enrolled again: the contact details replaced",
          content: { "application/json": { schema: one(cardEnrollmentRecord) } },
        },
        "422": error("StateConflict", "The card is not active; or no phoneNumber or email, and the customer has none"),
      },
    }),
  };
}

export function cardLinkPaths(): Paths {
  return {
    "/cards/{id}/link": {
      post: write("Link a printed physical card to a customer (by id or by PAN)", cardLinkSchema, cardRecord, {
        description: LINK_DESCRIPTION,
        bodyExample: linkRequest,
        example: { code: "success", data: { ...examples.card, type: "physical", reference: "card-0001" } },
        responses: {
          "400": error("BadRequest", "Invalid body; or `pan` is not this card's number"),
          "404": error("NotFound", "Unknown card (or not a printed one), customer or fundingSource"),
          "409": error("Conflict", "The card is linked already; or the reference is already used"),
          "422": error("StateConflict", "A virtual card; fundingSource in another currency, or virtual"),
        },
      }),
    },
    "/cards/{id}/enroll/safetoken": enrollPath("safetoken", "SafeToken"),
    "/cards/{id}/enroll/3ds": enrollPath("3ds", "3-D Secure"),
    "/simulation/card-programs/{id}/print-cards": {
      post: operation({
        summary: "The card bureau prints cards of a live physical program",
        description:
          "At most the program's quantity in all. Answers what is on each card's face, its PAN included (so the " +
          "answer is not kept for Idempotency-Key replays); POST /cards/{id}/link gives one to a customer.",
        body: printCardsSchema,
        bodyExample: { quantity: 2 },
        status: "201",
        returns: "The printed cards",
        schema: success({ type: "array", items: ref(printedCardRecord) }),
        responses: {
          "403": error(
            "Forbidden",
            "A live key: simulation takes test keys (sk.test.…) only; or a restricted key without write",
          ),
          "422": error("StateConflict", "A virtual program; a program not live yet; more cards than its quantity"),
        },
      }),
    },
  };
}
