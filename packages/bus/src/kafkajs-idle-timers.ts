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
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
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
export const KafkaRequestQueue = require("kafkajs/src/network/requestQueue/index.js") as { prototype: RequestQueue } & (new (
  options: Record<string, unknown>,
) => RequestQueue);

KafkaRequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckWhilePending;
