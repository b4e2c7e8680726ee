/**
 * Delayed requests (the original provider's "GRP"): with a key's `delayedRequests` on, a write the owning service has
 * not answered within the threshold is answered 202 `request-accepted`; the gateway keeps waiting, stores the answer,
 * and GET /requests/:id shows it. These are the rules; src/delayed-requests.ts applies them.
 */

export const REQUEST_STATUSES = ["processing", "completed", "failed"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** What the client would have been answered: an HTTP status and the body (JSON, or the text as a string). */
export interface FinalAnswer {
  statusCode: number;
  body: unknown;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Only writes are delayed: a read answers as it always did. */
export const isDelayable = (method: string): boolean => !READS.has(method.toUpperCase());

/** completed: the service answered 2xx; failed: any other answer, or none. */
export const statusOf = (statusCode: number): Exclude<RequestStatus, "processing"> =>
  statusCode >= 200 && statusCode < 300 ? "completed" : "failed";

/** An answer's bytes as stored: parsed JSON, the text itself when it is not JSON, null when empty. */
export function storedBody(bytes: Buffer): unknown {
  if (bytes.length === 0) return null;
  const text = bytes.toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * How long a request may stay `processing` before it is failed as interrupted: far beyond the gateway's upstream
 * timeouts (30 s for the answer's headers, 30 s between its bytes), so only a request whose gateway stopped before the
 * answer came (a crash: a graceful stop waits for it) is still processing then.
 */
export const PROCESSING_DEADLINE_MS = 5 * 60_000;

/** Whether a request still processing was made so long ago that its gateway must have stopped waiting for it. */
export const isOverdue = (createdAt: Date, now: number): boolean => now - createdAt.getTime() > PROCESSING_DEADLINE_MS;

/** The final answer of a request its gateway stopped waiting for; whether the service acted on it is unknown. */
export const INTERRUPTED_ANSWER: FinalAnswer = {
  statusCode: 503,
  body: {
    statusCode: 503,
    code: "request-interrupted",
    message:
      "The gateway stopped before the service answered: the request may or may not have taken effect. " +
      "Look the resource up (e.g. by its reference) before sending the request again",
  },
};
