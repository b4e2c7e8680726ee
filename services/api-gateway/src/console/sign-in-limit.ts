/**
 * Sign-in attempts per client address, a token bucket each (src/domain/token-bucket.ts): 10 at once, then one every
 * 6 seconds. Kept on this gateway instance only: a key has ~187 random bits, so the limit is there to keep the
 * sign-in from being a cheap oracle or a load on the database, not to make guessing hopeless (it already is).
 */
import { fullBucket, refill, secondsUntilAdmitted, type BucketLimit, type BucketState } from "../domain/token-bucket";

export const SIGN_IN_LIMIT: BucketLimit = { rate: 1 / 6, burst: 10 };
const MAX_ADDRESSES = 10_000;

export interface SignInDecision {
  admitted: boolean;
  /** Whole seconds until the next attempt is admitted (0 when this one was). */
  retryAfter: number;
}

export function createSignInLimit(limit: BucketLimit = SIGN_IN_LIMIT, maxAddresses = MAX_ADDRESSES) {
  const buckets = new Map<string, BucketState>();

  /** Forgets addresses whose bucket is full again (they would start full anyway), then, if need be, the oldest. */
  const makeRoom = (now: number) => {
    for (const [address, state] of buckets) {
      refill(state, limit, now);
      if (state.tokens >= limit.burst) buckets.delete(address);
    }
    for (const address of buckets.keys()) {
      if (buckets.size < maxAddresses) break;
      buckets.delete(address);
    }
  };

  return {
    attempt(address: string, now: number): SignInDecision {
      let state = buckets.get(address);
      if (!state) {
        if (buckets.size >= maxAddresses) makeRoom(now);
        state = fullBucket(limit, now);
        buckets.set(address, state);
      }
      refill(state, limit, now);
      // A fractional rate refills to 0.999… where it means 1.
      if (state.tokens < 1 - 1e-9) return { admitted: false, retryAfter: secondsUntilAdmitted(state, limit) };
      state.tokens -= 1;
      return { admitted: true, retryAfter: 0 };
    },
    size: () => buckets.size,
  };
}

export type SignInLimit = ReturnType<typeof createSignInLimit>;
