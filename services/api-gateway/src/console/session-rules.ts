/**
 * The console session's rules, pure: how its id and CSRF token are made and compared, and when it ends. The id is
 * a bearer credential (the cookie): only its SHA-256 is stored, like an API key's.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A session ends after this long without a request… */
export const IDLE_MS = 30 * 60_000;
/** …and this long after sign-in at the latest. */
export const ABSOLUTE_MS = 12 * 60 * 60_000;
/** last_seen_at is written at most this often per session: the idle limit is kept to within this much. */
export const TOUCH_EVERY_MS = 60_000;

export const SESSION_COOKIE = "cardhold_session";
export const CSRF_HEADER = "x-csrf-token";

/** 32 random bytes, base64url: 256 bits, never guessed. */
const randomToken = () => randomBytes(32).toString("base64url");

export const newSessionId = randomToken;
export const newCsrfToken = randomToken;

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** Whether a cookie's value could be a session id (anything else is not looked up). */
export const isSessionIdShaped = (value: string): boolean => TOKEN_FORMAT.test(value);

export const hashSessionId = (id: string): string => createHash("sha256").update(id).digest("hex");

/** Compares a given token with the expected one in constant time (for equal lengths; the length is no secret). */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface SessionTimes {
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export const timesAtSignIn = (now: number): SessionTimes => ({
  createdAt: now,
  lastSeenAt: now,
  expiresAt: now + ABSOLUTE_MS,
});

/** Whether the session has ended at `now`: idle too long, or past its absolute limit. */
export const hasEnded = (s: SessionTimes, now: number): boolean => now >= s.expiresAt || now - s.lastSeenAt >= IDLE_MS;

/** Whether this request should move last_seen_at forward (at most once a TOUCH_EVERY_MS). */
export const isDueForTouch = (s: SessionTimes, now: number): boolean => now - s.lastSeenAt >= TOUCH_EVERY_MS;

/** When the session ends if no request comes: the idle limit or the absolute one, whichever is first. */
export const endsAt = (s: SessionTimes): number => Math.min(s.lastSeenAt + IDLE_MS, s.expiresAt);

/** The cookie's Max-Age: what is left of the absolute limit, in whole seconds. */
export const cookieMaxAgeSeconds = (s: SessionTimes, now: number): number =>
  Math.max(0, Math.floor((s.expiresAt - now) / 1000));
