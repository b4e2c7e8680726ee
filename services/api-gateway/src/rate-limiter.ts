import {
  charge,
  fullBucket,
  refill,
  secondsUntilAdmitted,
  type BucketLimit,
  type BucketState,
} from "./domain/token-bucket";
import type { RateLimits } from "./rate-limit-settings";

export type Policy = "per-key" | "per-business";

/** What the operator set for one business; a policy left out keeps the default. */
export type RateLimitOverride = Partial<RateLimits>;

export interface PolicyState {
  policy: Policy;
  limit: BucketLimit;
  state: BucketState;
}

export interface Decision {
  admitted: boolean;
  /** Seconds to wait when refused (0 when admitted). */
  retryAfter: number;
  policies: PolicyState[];
}

/** One bucket on this instance; `used` counts what this instance admitted from it, for the other instances. */
interface LocalBucket extends BucketState {
  policy: Policy;
  businessId: string;
  used: number;
  reported: number;
  lastActive: number;
}

/** How a bucket is named in the shared usage table: `b:<business>` or `k:<business>:<key>`. */
export const bucketId = (policy: Policy, businessId: string, keyId?: string): string =>
  policy === "per-business" ? `b:${businessId}` : `k:${businessId}:${keyId}`;

function parseBucketId(id: string): { policy: Policy; businessId: string } | undefined {
  const [kind, businessId] = id.split(":");
  if (!businessId || (kind !== "b" && kind !== "k")) return undefined;
  return { policy: kind === "b" ? "per-business" : "per-key", businessId };
}

const FIELD = { "per-key": "perKey", "per-business": "perBusiness" } as const;

/** This instance's buckets: a request takes a token from its key's and its business's bucket, or from neither. */
export function createRateLimiter(defaults: RateLimits) {
  const buckets = new Map<string, LocalBucket>();
  let overrides = new Map<string, RateLimitOverride>();

  const limitOf = (policy: Policy, businessId: string): BucketLimit =>
    overrides.get(businessId)?.[FIELD[policy]] ?? defaults[FIELD[policy]];

  const bucket = (id: string, policy: Policy, businessId: string, now: number): LocalBucket => {
    let found = buckets.get(id);
    if (!found) {
      found = {
        ...fullBucket(limitOf(policy, businessId), now),
        policy,
        businessId,
        used: 0,
        reported: 0,
        lastActive: now,
      };
      buckets.set(id, found);
    }
    refill(found, limitOf(policy, businessId), now);
    return found;
  };

  return {
    limitsFor: (businessId: string): RateLimits => ({
      perKey: limitOf("per-key", businessId),
      perBusiness: limitOf("per-business", businessId),
    }),

    admit(caller: { businessId: string; keyId: string }, now: number): Decision {
      const key = bucket(bucketId("per-key", caller.businessId, caller.keyId), "per-key", caller.businessId, now);
      const business = bucket(bucketId("per-business", caller.businessId), "per-business", caller.businessId, now);
      const policies = [key, business].map((b) => ({
        policy: b.policy,
        limit: limitOf(b.policy, b.businessId),
        state: b,
      }));
      const admitted = key.tokens >= 1 && business.tokens >= 1;
      for (const b of [key, business]) {
        b.lastActive = now;
        if (!admitted) continue;
        b.tokens -= 1;
        b.used += 1;
      }
      const retryAfter = admitted ? 0 : Math.max(...policies.map((p) => secondsUntilAdmitted(p.state, p.limit)));
      return { admitted, retryAfter, policies };
    },

    /** This instance's running totals of the buckets that admitted something since they were last reported. */
    unreported: (): { bucket: string; used: number }[] =>
      [...buckets].filter(([, b]) => b.used > b.reported).map(([id, b]) => ({ bucket: id, used: b.used })),

    markReported(rows: { bucket: string; used: number }[]): void {
      for (const row of rows) {
        const b = buckets.get(row.bucket);
        if (b) b.reported = Math.max(b.reported, row.used);
      }
    },

    /** Requests another instance admitted from the same bucket. */
    chargeRemote(id: string, count: number, now: number): void {
      const parsed = parseBucketId(id);
      if (!parsed || count <= 0) return;
      const b = bucket(id, parsed.policy, parsed.businessId, now);
      charge(b, limitOf(parsed.policy, parsed.businessId), count, now);
      b.lastActive = now;
    },

    setOverride(businessId: string, override: RateLimitOverride | undefined): void {
      if (override) overrides.set(businessId, override);
      else overrides.delete(businessId);
    },

    replaceOverrides(all: Map<string, RateLimitOverride>): void {
      overrides = all;
    },

    /**
     * Forgets buckets that are full and were not used for `idleMs` (reported first): a bucket made again starts
     * full with a counter from 0, which the other instances read as a new counter (rate-limit-sync.ts).
     */
    evictIdle(now: number, idleMs: number): void {
      for (const [id, b] of buckets) {
        const limit = limitOf(b.policy, b.businessId);
        refill(b, limit, now);
        if (b.used === b.reported && b.tokens >= limit.burst && now - b.lastActive >= idleMs) buckets.delete(id);
      }
    },

    size: () => buckets.size,
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
