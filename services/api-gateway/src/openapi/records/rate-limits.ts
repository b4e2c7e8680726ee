/** A business's rate limits as the operator's admin endpoints show them (src/http/rate-limit-admin-routes.ts). */
import { z } from "zod";
import { named } from "../schema";

const policy = z.object({
  rate: z.number().int().describe("Requests a second (the bucket's refill)"),
  burst: z.number().int().describe("The most requests admitted at once (the bucket's size)"),
  source: z
    .enum(["default", "override"])
    .describe("default: the RATE_LIMIT_* settings; override: set for this business"),
});

export const rateLimitsRecord = named(
  "RateLimits",
  z.object({
    object: z.literal("rateLimits"),
    business: z.string().describe("Business id"),
    perKey: policy.describe("Each of the business's API keys"),
    perBusiness: policy.describe("All of the business's keys together"),
  }),
);
