import { z } from "zod";

const text = (max = 200) => z.string().trim().min(1, "must not be empty").max(max);
const optionalText = (max = 200) => z.string().trim().max(max).optional();
const countryCode = z.string().regex(/^[A-Z]{2}$/, "must be a 2-letter country code, e.g. NG");
const phoneNumber = z.string().regex(/^\+[1-9]\d{6,14}$/, "must be in international format with a leading +");
const email = z.email("must be an e-mail address");
/** Accepts zero-padded and unpadded dates (1997-02-13, 1997-2-13) as the original interface shows both. */
const date = z
  .string()
  .regex(/^\d{4}-\d{1,2}-\d{1,2}$/, "must be a date, YYYY-MM-DD")
  .refine((s) => {
    const [y, m, d] = s.split("-").map(Number) as [number, number, number];
    const parsed = new Date(Date.UTC(y, m - 1, d));
    return parsed.getUTCFullYear() === y && parsed.getUTCMonth() === m - 1 && parsed.getUTCDate() === d;
  }, "must be a real calendar date");

export const VERIFICATION_TIERS = ["tier-1", "tier-2", "tier-3"] as const;
export const CUSTOMER_TYPES = ["individual", "business"] as const;

const identity = z.object({
  type: text(40),
  id: text(100),
  url: z.url("must be a URL").optional(),
  issuingCountry: countryCode,
});

const address = z.object({
  city: text(),
  state: text(100),
  countryCode,
  addressLineOne: text(),
  addressLineTwo: z.string().max(200).nullable().optional(),
  postalCode: optionalText(20).nullable(),
});

export const individualClaimsSchema = z.object({
  individualInformation: z.object({
    title: optionalText(20),
    gender: optionalText(20),
    nationalityCode: countryCode.optional(),
    firstName: text(100),
    middleName: optionalText(100),
    lastName: text(100),
    phoneNumber,
    dateOfBirth: date,
    email,
  }),
  individualAddress: address.optional(),
  individualIdentity: identity.optional(),
});

export const businessClaimsSchema = z.object({
  businessInformation: z.object({ registrationName: text(), phoneNumber, email }),
  businessIdentity: identity.optional(),
  businessDirectors: z.array(text()).max(50).optional(),
  businessAddress: address
    .omit({ postalCode: true })
    .extend({ postalCode: optionalText(20) })
    .optional(),
});

export const metadataSchema = z
  .record(z.string().min(1).max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
  .refine((m) => Object.keys(m).length <= 50, "at most 50 keys");

const verification = z.union([
  z.enum(VERIFICATION_TIERS),
  z.object({ type: z.enum(VERIFICATION_TIERS) }).transform((v) => v.type),
]);

/** Fields common to both customer types; claims are checked against the type separately so every problem is listed. */
export const customerBaseSchema = z.object({
  name: text(),
  reference: text(100),
  type: z.enum(CUSTOMER_TYPES),
  claims: z.record(z.string(), z.unknown()),
  verifications: z.array(verification).min(1, "must name at least one tier"),
  metadata: metadataSchema,
});

export const customerRequestSchema = customerBaseSchema.extend({
  claims: z.union([individualClaimsSchema, businessClaimsSchema]),
});
export type CustomerRequest = z.infer<typeof customerRequestSchema>;

export const customerRecordSchema = z.object({
  id: z.string(),
  object: z.literal("customer"),
  name: z.string(),
  reference: z.string(),
  type: z.enum(CUSTOMER_TYPES),
  status: z.literal("active"),
  claims: z.record(z.string(), z.unknown()),
  verifications: z.array(z.object({ type: z.enum(VERIFICATION_TIERS), status: z.literal("verified") })),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomerRecord = z.infer<typeof customerRecordSchema>;

const identityRecord = identity.omit({ url: true });

/**
 * Claims as customer records show them (the OpenAPI document's shape; records are not parsed with it): an individual
 * address always has `postalCode`, "" when it was never given; identity `url`s are never shown.
 */
export const individualClaimsRecordSchema = individualClaimsSchema.extend({
  individualAddress: address.extend({ postalCode: z.string().describe('"" when never given') }).optional(),
  individualIdentity: identityRecord.optional(),
});
export const businessClaimsRecordSchema = businessClaimsSchema.extend({ businessIdentity: identityRecord.optional() });
