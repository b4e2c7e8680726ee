import { createHmac, timingSafeEqual } from "node:crypto";
import { memoryReplayStore, type ReplayStore } from "./replay-store.js";

/** The Standard Webhooks headers every Cardhold delivery carries beside Service-Signature. */
export const STANDARD_WEBHOOKS_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

/** A delivery's Standard Webhooks headers, as received (any may be missing). */
export interface StandardWebhooksHeaders {
  /** `webhook-id`: the event id (`evt.…`), the same on every attempt. */
  id?: string;
  /** `webhook-timestamp`: when the attempt was sent, in seconds since the epoch. */
  timestamp?: string;
  /** `webhook-signature`: space-separated `v1,<base64>` signatures, one per key that signs (two while a key rolls). */
  signature?: string;
}

export interface StandardWebhooksOptions {
  /** Refuse a delivery without the headers (default false: checked when present, Service-Signature alone otherwise). */
  required?: boolean;
  /** How far `webhook-timestamp` may be from now, either way (default 300 s, the specification's). */
  toleranceSeconds?: number;
  /** Where accepted deliveries are remembered to refuse replays (default: memoryReplayStore(), one process). */
  replayStore?: ReplayStore;
  /** The clock, ms since the epoch (default Date.now). */
  now?: () => number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** What a delivery's Standard Webhooks headers say: nothing to check, verified, or why it is refused. */
export type StandardWebhooksCheck =
  | { outcome: "absent" }
  | { outcome: "verified"; id: string; timestamp: number }
  | { outcome: "invalid-signature" | "invalid-timestamp" };

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the signing key's UTF-8 bytes. */
export function standardSignature(rawBody: Buffer | string, id: string, timestamp: string, signingKey: string): string {
  return `v1,${createHmac("sha256", signingKey).update(`${id}.${timestamp}.`).update(rawBody).digest("base64")}`;
}

/** True when one of the header's `v1` signatures is the one `signingKey` makes for the delivery; constant time. */
export function verifyStandardSignature(
  rawBody: Buffer | string,
  headers: Required<StandardWebhooksHeaders>,
  signingKey: string,
): boolean {
  const expected = Buffer.from(standardSignature(rawBody, headers.id, headers.timestamp, signingKey));
  return headers.signature.split(" ").some((given) => {
    const candidate = Buffer.from(given);
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

const SECONDS = /^\d{1,12}$/;

/** Checks the headers against `keys` (those that verified Service-Signature) and the timestamp against the clock. */
export function checkStandardWebhooks(
  rawBody: Buffer | string,
  headers: StandardWebhooksHeaders,
  keys: readonly string[],
  opts: { required: boolean; toleranceSeconds: number; now: () => number },
): StandardWebhooksCheck {
  const { id, timestamp, signature } = headers;
  if (!id && !timestamp && !signature) return opts.required ? { outcome: "invalid-signature" } : { outcome: "absent" };
  if (!id || !timestamp || !signature) return { outcome: "invalid-signature" };
  if (!SECONDS.test(timestamp)) return { outcome: "invalid-timestamp" };
  if (!keys.some((key) => verifyStandardSignature(rawBody, { id, timestamp, signature }, key)))
    return { outcome: "invalid-signature" };
  const sentAt = Number(timestamp);
  if (Math.abs(opts.now() / 1000 - sentAt) > opts.toleranceSeconds) return { outcome: "invalid-timestamp" };
  return { outcome: "verified", id, timestamp: sentAt };
}

/** The options with their defaults; a tolerance that is not a positive number throws TypeError at once. */
export function standardWebhooksSettings(opts: StandardWebhooksOptions = {}) {
  const toleranceSeconds = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds <= 0)
    throw new TypeError("standardWebhooks.toleranceSeconds must be a positive number of seconds");
  const now = opts.now ?? Date.now;
  return {
    required: opts.required ?? false,
    toleranceSeconds,
    now,
    replayStore: opts.replayStore ?? memoryReplayStore(now),
  };
}
