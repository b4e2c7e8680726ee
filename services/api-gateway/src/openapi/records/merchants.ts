/**
 * The merchant tools' records: services/authorization-engine/src/merchants/merchant-records.ts. Keep them in step.
 */
import { z } from "zod";
import { MCC_CATEGORY_NAMES } from "@cardhold/contracts";
import { named } from "../schema";
import { idOf, time } from "./common";

export const merchantRecord = named(
  "Merchant",
  z.object({
    id: idOf("mch.", "Merchant id: what allowedMerchants / blockedMerchants and an authorization's merchant name"),
    object: z.literal("merchant"),
    name: z.string(),
    mcc: z.string().describe("Its 4-digit merchant category code"),
    category: z.enum(MCC_CATEGORY_NAMES).describe("Its category, as allowedCategories / blockedCategories name it"),
    city: z.string(),
    country: z.string().describe("2-letter country code"),
    createdAt: time,
    updatedAt: time,
  }),
  "A merchant of the sandbox's directory: reference data, the same for every business in both modes.",
);

export const merchantCategoryRecord = named(
  "MerchantCategory",
  z.object({
    object: z.literal("merchant.category"),
    name: z.enum(MCC_CATEGORY_NAMES).describe("What allowedCategories / blockedCategories take"),
    mccRanges: z
      .array(z.string())
      .describe('Its MCCs: each a 4-digit code or an inclusive range "a-b", as allowedMcc takes them'),
  }),
);
