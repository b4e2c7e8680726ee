import { z } from "zod";
import { accountId, minorUnits } from "./cards";
import { metadataSchema } from "./customer";
import { currencySchema } from "./ledger";

/** Request body of `POST /fees` (compatibility notes: fees, `fee.` ids). */

export const FEE_STRUCTURES = ["flat", "percentage"] as const;
export type FeeStructure = (typeof FEE_STRUCTURES)[number];

/** Decimals a percentage may have: 1.2345 % at most, so that the fee arithmetic on it stays exact. */
export const PERCENTAGE_DECIMALS = 4;

const hasAtMostPercentageDecimals = (value: number) => Number(value.toFixed(PERCENTAGE_DECIMALS)) === value;

export const feeRequestSchema = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(100),
    description: z.string().max(500).optional(),
    structure: z.enum(FEE_STRUCTURES),
    currency: currencySchema.default("NGN"),
    value: z
      .number()
      .min(0, "must not be negative")
      .describe("Flat: minor units. Percentage: a percentage of the amount, 1.5 = 1.5 % (at most 4 decimals, ≤ 100)"),
    cap: minorUnits.nullish().describe("Percentage fees only: the most the fee charges, in minor units"),
    account: accountId.describe("The account the fee is paid into"),
    metadata: metadataSchema.optional(),
  })
  .superRefine((fee, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (fee.structure === "flat") {
      if (!minorUnits.safeParse(fee.value).success) problem("value", "a flat fee is a whole number of minor units");
      if (fee.cap !== undefined && fee.cap !== null) problem("cap", "only a percentage fee has a cap");
    }
    if (fee.structure === "percentage" && (fee.value > 100 || !hasAtMostPercentageDecimals(fee.value)))
      problem("value", `a percentage is from 0 to 100 with at most ${PERCENTAGE_DECIMALS} decimals (1.5 = 1.5 %)`);
  });
export type FeeRequest = z.infer<typeof feeRequestSchema>;
