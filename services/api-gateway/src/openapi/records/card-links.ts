/**
 * Records of card link and enrolment: services/authorization-engine/src/cards/card-enrollments.ts and card-links.ts
 * (printed cards, test mode). Keep them in step.
 */
import { z } from "zod";
import { CARD_ENROLLMENT_TYPES, currencySchema } from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, time } from "./common";

export const cardEnrollmentRecord = named(
  "CardEnrollment",
  z.object({
    object: z.literal("card.enrollment"),
    card: idOf("c.", "The card"),
    type: z.enum(CARD_ENROLLMENT_TYPES).describe("SafeToken or 3-D Secure"),
    phoneNumber: z.string().optional().describe("Where one-time passwords go by SMS"),
    email: z.string().optional().describe("Where one-time passwords go by e-mail"),
    status: z.literal("enrolled"),
    createdAt: time,
    updatedAt: time,
  }),
);

export const printedCardRecord = named(
  "PrintedCard",
  z.object({
    id: idOf("c.", "The card's id: POST /cards/{id}/link gives it to a customer"),
    object: z.literal("card.printed"),
    program: idOf("c.prg.", "Its card program"),
    type: z.literal("physical"),
    network: z.enum(["verve", "mastercard"]),
    currency: currencySchema,
    pan: z.string().describe("The number printed on the card (what linking by PAN sends)"),
    last4: z.string(),
    expiry: z.string().describe("MM/YY"),
  }),
  "A card the sandbox's card bureau printed for a physical program: not a card of the API until it is linked.",
);
