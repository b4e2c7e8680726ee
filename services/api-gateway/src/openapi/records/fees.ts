/** The fee record, as the authorization engine's src/fees/fee-records.ts writes it (absent values left out). */
import { z } from "zod";
import { currencySchema, FEE_STRUCTURES } from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, metadata, minorUnits, time } from "./common";

export const feeRecord = named(
  "Fee",
  z.object({
    id: idOf("fee.", "Fee id"),
    object: z.literal("fee"),
    name: z.string(),
    description: z.string().optional(),
    structure: z.enum(FEE_STRUCTURES),
    currency: currencySchema,
    value: z
      .number()
      .describe(
        "Flat: minor units. Percentage: a percentage of the amount (1.5 = 1.5 %); the charge is rounded half up " +
          "to a whole minor unit, then limited to cap",
      ),
    cap: minorUnits("Percentage fees: the most the fee charges").optional(),
    account: idOf("ac.", "The account the fee is paid into"),
    metadata,
    createdAt: time,
    updatedAt: time,
  }),
);
