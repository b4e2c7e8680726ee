/** A token bucket: `rate` tokens a second up to `burst`; a request takes one. Pure arithmetic, times in ms. */
export interface BucketLimit {
  /** Tokens added a second. */
  rate: number;
  /** The most tokens the bucket holds: the largest burst admitted at once. */
  burst: number;
}

export interface BucketState {
  /** May be negative: a debt of what other gateway instances admitted (see rate-limit-sync.ts). */
  tokens: number;
  /** When `tokens` was last brought up to date. */
  at: number;
}

/**
 * The most debt a bucket carries, in seconds of refill. Bounds what a wrong remote count (an instance's counter
 * starting over) can cost a tenant; a real debt is at most one burst and a sync interval's refill per instance.
 */
export const MAX_DEBT_SECONDS = 10;

export const fullBucket = (limit: BucketLimit, now: number): BucketState => ({ tokens: limit.burst, at: now });

/** The tokens at `now`: refilled since `at`, never above the burst (a lowered limit caps an older bucket at once). */
export function refilled(state: BucketState, limit: BucketLimit, now: number): number {
  const elapsed = Math.max(0, now - state.at) / 1000;
  return Math.min(limit.burst, state.tokens + elapsed * limit.rate);
}

/** Brings the state up to `now` in place. */
export function refill(state: BucketState, limit: BucketLimit, now: number): void {
  state.tokens = refilled(state, limit, now);
  state.at = Math.max(state.at, now);
}

/** Takes `count` tokens that were spent elsewhere; the bucket may go into debt, down to MAX_DEBT_SECONDS. */
export function charge(state: BucketState, limit: BucketLimit, count: number, now: number): void {
  refill(state, limit, now);
  state.tokens = Math.max(-(limit.burst + limit.rate * MAX_DEBT_SECONDS), state.tokens - count);
}

/** Whole requests the bucket admits now (the `r` of the RateLimit header). */
export const remaining = (state: BucketState): number => Math.max(0, Math.floor(state.tokens));

/** Seconds until the next request is admitted: 0 when one is now, else at least 1 (Retry-After is whole seconds). */
export function secondsUntilAdmitted(state: BucketState, limit: BucketLimit): number {
  if (state.tokens >= 1) return 0;
  return Math.max(1, Math.ceil((1 - state.tokens) / limit.rate));
}

/** Seconds until the bucket is full again (the `t` of the RateLimit header). */
export const secondsUntilFull = (state: BucketState, limit: BucketLimit): number =>
  Math.max(0, Math.ceil((limit.burst - state.tokens) / limit.rate));
