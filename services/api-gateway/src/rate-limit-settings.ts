import { z } from "zod";
import type { BucketLimit } from "./domain/token-bucket";

/** The limits every key and every business gets unless the operator set others for the business (admin API). */
export interface RateLimits {
  perKey: BucketLimit;
  perBusiness: BucketLimit;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  perKey: { rate: 50, burst: 100 },
  perBusiness: { rate: 100, burst: 200 },
};

const perSecond = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback);

/** The settings of the gateway's process and of `cardhold dev`: requests a second, and the burst over that. */
export const RATE_LIMIT_SETTINGS = {
  RATE_LIMIT_PER_KEY: perSecond(DEFAULT_RATE_LIMITS.perKey.rate),
  RATE_LIMIT_BURST_PER_KEY: perSecond(DEFAULT_RATE_LIMITS.perKey.burst),
  RATE_LIMIT_PER_BUSINESS: perSecond(DEFAULT_RATE_LIMITS.perBusiness.rate),
  RATE_LIMIT_BURST_PER_BUSINESS: perSecond(DEFAULT_RATE_LIMITS.perBusiness.burst),
};

type RateLimitConfig = { [K in keyof typeof RATE_LIMIT_SETTINGS]: number };

export function rateLimitsFrom(config: RateLimitConfig): RateLimits {
  return {
    perKey: { rate: config.RATE_LIMIT_PER_KEY, burst: config.RATE_LIMIT_BURST_PER_KEY },
    perBusiness: { rate: config.RATE_LIMIT_PER_BUSINESS, burst: config.RATE_LIMIT_BURST_PER_BUSINESS },
  };
}
