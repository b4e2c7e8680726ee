import { createRequire } from "node:module";

/**
 * kafkajs 2.2.4 (the newest release) spins on every broker connection: once a request has been answered, its
 * request queue re-arms a check of its pending requests with `setTimeout(…, throttledUntil - now)` — a negative delay,
 * so about a thousand timers a second per connection — even when nothing is pending (kafkajs issues #1556 and #1704;
 * the fix, pull request #1667, is not released). Each service process burned 35–50 ms of CPU a second doing nothing.
 *
 * The check is needed only while requests wait (throttled by the broker, or over the in-flight limit); `push`
 * re-arms it when one starts to wait, and an answer or a timeout checks the queue anyway. So it is armed only then.
 */
interface RequestQueue {
  pending: unknown[];
  inflight: Map<number, { sentAt: number; requestTimeout: number; timeoutRequest(): void }>;
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  enforceRequestTimeout: boolean;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  isConnected(): boolean;
  destroy(): void;
}

/** kafkajs's own interval between checks of a queue that waits without being throttled. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

function scheduleCheckWhilePending(this: RequestQueue) {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const throttledFor = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL_MS,
  );
}

const require = createRequire(import.meta.url);
/** The class kafkajs's connections use (same module instance: same resolved path). */
export const KafkaRequestQueue = require("kafkajs/src/network/requestQueue/index.js") as {
  prototype: RequestQueue;
} & (new (options: Record<string, unknown>) => RequestQueue);

KafkaRequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckWhilePending;

/**
 * kafkajs also checks every connection's requests for a timeout every 100 ms, connected or idle: a service has 6–12
 * broker connections (producer, admin, a consumer group's coordinator and fetch), so 60–120 wake-ups a second for
 * requests that time out after 30 s. Once a second is precise enough for that (a request times out at most 1 s late).
 */
export const REQUEST_TIMEOUT_CHECK_INTERVAL_MS = 1_000;

function scheduleRequestTimeoutCheckEverySecond(this: RequestQueue) {
  if (!this.enforceRequestTimeout) return;
  this.destroy();
  this.requestTimeoutIntervalId = setInterval(() => {
    const now = Date.now();
    for (const request of this.inflight.values()) {
      if (now - request.sentAt > request.requestTimeout) request.timeoutRequest();
    }
    if (!this.isConnected()) this.destroy();
  }, REQUEST_TIMEOUT_CHECK_INTERVAL_MS);
}

KafkaRequestQueue.prototype.scheduleRequestTimeoutCheck = scheduleRequestTimeoutCheckEverySecond;
