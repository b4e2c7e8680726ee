import { z } from "zod";
import { DEPOSIT_CHANNEL_TYPES } from "./accounts";
import { accountId, customerId, spendingControlsSchema } from "./cards";
import { metadataSchema } from "./customer";

/** Card link and enrolment (compatibility notes part 2, "Cards: link and enrol") and printing for the sandbox. */

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max);

/** A card number as printed: 12 to 19 digits; spaces and dashes between groups are dropped. */
const pan = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^\d{12,19}$/, "must be a card number of 12 to 19 digits"));

/** The documented example sends `{}` for fundingSource ("the hash for the conversion"): no account named. */
const fundingSource = z
  .union([accountId, z.strictObject({})], { error: "must be an account id (ac.…) or {}" })
  .transform((value) => (typeof value === "string" ? value : undefined));

/**
 * POST /cards/:id/link: gives a printed card of a physical program to a customer. By id, or by PAN: a body with `pan`
 * must name the card's own number (what is printed on it).
 */
export const cardLinkSchema = z.object({
  customer: customerId,
  reference: text(100).optional(),
  cardHolderName: text(26).optional(),
  fundingSource: fundingSource.optional(),
  controls: spendingControlsSchema.optional(),
  metadata: metadataSchema.optional(),
  pan: pan.optional(),
  /** Sent with PAN linking: the card's own account (card-account programs) gets a bank-account deposit channel. */
  depositChannels: z.array(z.enum(DEPOSIT_CHANNEL_TYPES)).max(1).optional(),
});
export type CardLink = z.infer<typeof cardLinkSchema>;

export const CARD_ENROLLMENT_TYPES = ["safetoken", "3ds"] as const;
export type CardEnrollmentType = (typeof CARD_ENROLLMENT_TYPES)[number];

/** POST /cards/:id/enroll/safetoken and /enroll/3ds: where one-time passwords go; each defaults to the customer's. */
export const cardEnrollmentSchema = z.object({
  phoneNumber: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, "must be in international format with a leading +, e.g. +2348031234567")
    .optional(),
  email: z.email("must be an e-mail address").optional(),
});
export type CardEnrollment = z.infer<typeof cardEnrollmentSchema>;

/** Test mode: POST /simulation/card-programs/:id/print-cards, the card bureau printing a physical program's cards. */
export const printCardsSchema = z.object({ quantity: z.number().int().min(1).max(100).default(1) });
