import { describe, expect, it } from "vitest";
import type { AuthorizationBucket, AuthorizationStats, DeliveryStats } from "./api/types";
import { statsView } from "./stats";

const bucket = (start: string, count: number, approved: number, declined: number): AuthorizationBucket => ({
  start,
  count,
  approved,
  declined,
  declinedByReason: declined ? { "insufficient-funds": declined } : ({} as Record<string, number>),
  decisionLatencyP50Ms: count ? 40 : null,
  decisionLatencyP99Ms: count ? 90 : null,
});

const auths: AuthorizationStats = {
  window: "day",
  bucketSeconds: 900,
  buckets: [bucket("2025-01-01T10:00:00.000Z", 30, 20, 10), bucket("2025-01-01T10:15:00.000Z", 0, 0, 0)],
  totals: {
    count: 30,
    approved: 20,
    declined: 10,
    declinedByReason: { "insufficient-funds": 7, "spending-control": 3 },
    decisionLatencyP50Ms: 40,
    decisionLatencyP99Ms: 90,
  },
};

const deliveries: DeliveryStats = {
  window: "day",
  bucketSeconds: 900,
  buckets: [
    { start: "2025-01-01T10:00:00.000Z", attempts: 8, failed: 2 },
    { start: "2025-01-01T10:15:00.000Z", attempts: 0, failed: 0 },
  ],
  totals: { attempts: 8, failed: 2, failureRate: 0.25 },
};

describe("the Home page's numbers", () => {
  const view = statsView(auths, deliveries);

  it("turns 15-minute buckets into authorizations per minute and rates in percent, gaps where nothing happened", () => {
    expect(view.times).toEqual([1735725600, 1735726500]);
    expect(view.perMinute).toEqual([2, 0]);
    expect(view.approvalRate[0]).toBeCloseTo(66.67, 1);
    expect(view.approvalRate[1]).toBeNull();
    expect(view.latencyP99).toEqual([90, null]);
    expect(view.failureRate).toEqual([25, null]);
  });

  it("sums the window: per minute over its length, approval rate, failure rate, declines by reason most first", () => {
    expect(view.totals.perMinute).toBe(1);
    expect(view.totals.approvalRate).toBeCloseTo(2 / 3);
    expect(view.totals.failureRate).toBe(0.25);
    expect(view.totals.declinesByReason).toEqual([
      ["insufficient-funds", 7],
      ["spending-control", 3],
    ]);
  });
});
