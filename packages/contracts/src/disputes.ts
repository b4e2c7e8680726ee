import { z } from "zod";
import { authorizationId, positiveMinorUnits } from "./cards";

/** Request bodies of disputes (compatibility notes, "Disputes"): `POST /disputes` and `PUT /disputes/:id`. */

export const DISPUTE_REASONS = ["fraudulent", "duplicate", "value-not-received", "general"] as const;
/** open at creation; won or lost by the network; closed when the business withdraws it. All but open are final. */
export const DISPUTE_STATUSES = ["open", "won", "lost", "closed"] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

export const MAX_DISPUTE_DOCUMENTS = 20;

const details = z.string().trim().min(1, "must not be empty").max(5_000).describe("What happened, in your words");
const documents = z
  .array(z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).max(2_000))
  .max(MAX_DISPUTE_DOCUMENTS)
  .describe("The evidence: links to documents (receipts, correspondence); an update replaces the list");
/** The original interface names a user (`usr.…`) but has no users resource: the id is kept as given. */
const userId = z
  .string()
  .regex(/^usr\.[A-Za-z0-9_-]{1,64}$/, "must be a user id (usr.…)")
  .describe("The user (usr.…) the dispute is raised for or by; kept as given");

export const disputeRequestSchema = z.object({
  reason: z.enum(DISPUTE_REASONS),
  source: authorizationId.describe("The disputed card authorization (c.auth.…): a capture with money debited"),
  amount: positiveMinorUnits
    .optional()
    .describe("Minor units disputed; default: all of the captured amount not already won back (fees not included)"),
  text: details.optional(),
  documents: documents.optional(),
  user: userId.optional(),
});
export type DisputeRequest = z.infer<typeof disputeRequestSchema>;

/** Only the evidence changes; give at least one field. */
export const disputeUpdateSchema = z
  .object({ text: details.optional(), documents: documents.optional(), user: userId.optional() })
  .refine((u) => u.text !== undefined || u.documents !== undefined || u.user !== undefined, {
    message: "give text, documents or user",
  });
export type DisputeUpdate = z.infer<typeof disputeUpdateSchema>;
