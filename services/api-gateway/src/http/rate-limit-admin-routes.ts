import type { Express } from "express";
import { z } from "zod";
import type { Db } from "@cardhold/db";
import { notFound, validate } from "@cardhold/platform";
import type { BucketLimit } from "../domain/token-bucket";
import type { RateLimitOverride, RateLimiter } from "../rate-limiter";
import { businessExists } from "../store/businesses.store";
import { deleteOverride, findOverride, saveOverride } from "../store/rate-limits.store";
import { operatorGuard } from "./admin-routes";

const limitSchema = z.strictObject({
  rate: z.number().int().min(1).max(1_000_000).describe("requests a second"),
  burst: z.number().int().min(1).max(1_000_000).describe("the most requests admitted at once"),
});

/** Strict: a misspelt policy must not quietly leave the default in force. */
export const rateLimitOverrideSchema = z
  .strictObject({ perKey: limitSchema.optional(), perBusiness: limitSchema.optional() })
  .refine((o) => o.perKey || o.perBusiness, "must set perKey, perBusiness or both (DELETE restores the defaults)");

const policyView = (limit: BucketLimit, overridden: boolean) => ({
  ...limit,
  source: overridden ? "override" : "default",
});

function view(businessId: string, limiter: RateLimiter, override: RateLimitOverride | undefined) {
  const limits = limiter.limitsFor(businessId);
  return {
    object: "rateLimits",
    business: businessId,
    perKey: policyView(override?.perKey ?? limits.perKey, override?.perKey !== undefined),
    perBusiness: policyView(override?.perBusiness ?? limits.perBusiness, override?.perBusiness !== undefined),
  };
}

/**
 * A business's own limits (operator token): GET shows what applies, PUT replaces the override (a policy left out
 * keeps the default), DELETE restores the defaults. This instance applies a change at once, the others within 1 s.
 */
export function rateLimitAdminRoutes(app: Express, db: Db, limiter: RateLimiter, operatorToken: string | undefined) {
  const guard = operatorGuard(operatorToken);
  const path = "/admin/businesses/:id/rate-limits";
  const existing = async (id: string) => {
    if (!(await businessExists(db, id))) throw notFound("Business", id);
    return id;
  };

  app.get(path, guard, async (req, res) => {
    const id = await existing(req.params.id as string);
    res.json({ code: "success", data: view(id, limiter, await findOverride(db, id)) });
  });

  app.put(path, guard, async (req, res) => {
    const id = await existing(req.params.id as string);
    const override = validate(rateLimitOverrideSchema, req.body);
    await saveOverride(db, id, override);
    limiter.setOverride(id, override);
    res.json({ code: "success", data: view(id, limiter, override) });
  });

  app.delete(path, guard, async (req, res) => {
    const id = await existing(req.params.id as string);
    await deleteOverride(db, id);
    limiter.setOverride(id, undefined);
    res.json({ code: "success", data: view(id, limiter, undefined) });
  });
}
