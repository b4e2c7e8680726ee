/** Delays after the 1st, 2nd, … failed attempt; the last one repeats until the window closes. */
export const DEFAULT_RETRY_DELAYS_MS = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000,
];
export const DEFAULT_RETRY_WINDOW_MS = 3 * 24 * 3_600_000;
export const JITTER = 0.2;
/** A receiver's Retry-After is honoured up to this. */
export const MAX_RETRY_AFTER_MS = 3_600_000;
/** Timeouts and 429s wait at least this long. */
export const SLOW_DOWN_FLOOR_MS = 30_000;

export interface RetrySchedule {
  delaysMs: number[];
  windowMs: number;
}

export interface FailedAttempt {
  /** 1 for the first attempt. */
  attemptNo: number;
  firstAttemptAt: number;
  now: number;
  httpStatus?: number;
  timedOut?: boolean;
  retryAfterMs?: number;
}

/**
 * When to try a failed notification again, or undefined when the window (3 days by default) is used up and the
 * event is marked failed. `random` in [0, 1) spreads retries by ±20 % so receivers coming back are not stampeded.
 */
export function nextAttemptAt(
  failed: FailedAttempt,
  schedule: RetrySchedule = { delaysMs: DEFAULT_RETRY_DELAYS_MS, windowMs: DEFAULT_RETRY_WINDOW_MS },
  random: () => number = Math.random,
): number | undefined {
  const base = schedule.delaysMs[Math.min(failed.attemptNo, schedule.delaysMs.length) - 1] ?? 60_000;
  let delay = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  if (failed.timedOut || failed.httpStatus === 429) delay = Math.max(delay, SLOW_DOWN_FLOOR_MS);
  if (failed.retryAfterMs !== undefined) delay = Math.max(delay, Math.min(failed.retryAfterMs, MAX_RETRY_AFTER_MS));
  const at = failed.now + delay;
  return at - failed.firstAttemptAt > schedule.windowMs ? undefined : at;
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
