import { z } from "zod";
import { accountId, customerId } from "./cards";
import { metadataSchema } from "./customer";

const billProductId = z.string().regex(/^bp\.[1-9A-HJ-NP-Za-km-z]{17}$/, "must be a bill product id (bp.…)");

/** One input value: a string, or a number for amounts (minor units). Checked against the product separately. */
const inputValue = z.union([z.string().max(200), z.number()]);

/**
 * The bill payment request of interface.md; POST /payments/bill and POST /payments/bill/validate take the same body.
 * Unknown top-level fields are ignored, as on the other endpoints.
 */
export const billPaymentRequestSchema = z.object({
  product: billProductId,
  inputs: z
    .record(z.string().min(1).max(64), inputValue)
    .refine((i) => Object.keys(i).length <= 20, "at most 20 inputs"),
  customer: customerId.optional(),
  reference: z.string().trim().min(1, "must not be empty").max(100).optional(),
  debitSource: accountId.optional(),
  metadata: metadataSchema.optional(),
});

export type BillPaymentRequest = z.output<typeof billPaymentRequestSchema>;
