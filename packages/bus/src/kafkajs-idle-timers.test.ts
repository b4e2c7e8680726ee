import { describe, expect, it, vi } from "vitest";
import { KafkaRequestQueue, REQUEST_TIMEOUT_CHECK_INTERVAL_MS } from "./kafkajs-idle-timers";

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function queue() {
  return new KafkaRequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: "t",
    broker: "b",
    logger: silent,
  });
}

describe("kafkajs request queue, patched", () => {
  it("arms no timer when nothing waits (kafkajs would re-arm one at once, forever)", () => {
    const q = queue();
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it("still checks again while requests wait, after the broker's throttle", async () => {
    const q = queue();
    let checks = 0;
    const check = q.checkPendingRequests.bind(q);
    q.checkPendingRequests = () => {
      checks += 1;
      check();
    };
    let sent = 0;
    q.pending.push({ expectResponse: true, correlationId: 1, send: () => void (sent += 1) });
    q.throttledUntil = Date.now() + 30;
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).not.toBeNull();
    await new Promise((r) => setTimeout(r, 80));
    expect(checks).toBeGreaterThanOrEqual(1);
    expect(sent).toBe(1);
    expect(q.throttleCheckTimeoutId).toBeNull(); // nothing waits any more: no timer
  });

  it("checks in-flight requests for a timeout once a second, not every 100 ms, and still times them out", () => {
    vi.useFakeTimers();
    try {
      const q = new KafkaRequestQueue({
        maxInFlightRequests: 1,
        requestTimeout: 50,
        enforceRequestTimeout: true,
        clientId: "t",
        broker: "b",
        logger: silent,
      });
      let timedOut = 0;
      q.inflight.set(1, { sentAt: Date.now(), requestTimeout: 50, timeoutRequest: () => void (timedOut += 1) });
      q.scheduleRequestTimeoutCheck();
      vi.advanceTimersByTime(REQUEST_TIMEOUT_CHECK_INTERVAL_MS - 1);
      expect(timedOut).toBe(0); // kafkajs's own 100 ms check would have fired by now
      vi.advanceTimersByTime(1);
      expect(timedOut).toBe(1);
      q.destroy();
    } finally {
      vi.useRealTimers();
    }
  });
});
