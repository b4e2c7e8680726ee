import type { AuthorizationStats, DeliveryStats } from "./api/types";

/** The Home page's series and headline numbers, from GET /card-authorizations/stats and GET /events/stats. */
export interface StatsView {
  times: number[];
  perMinute: number[];
  approvalRate: (number | null)[];
  latencyP50: (number | null)[];
  latencyP99: (number | null)[];
  deliveryTimes: number[];
  failureRate: (number | null)[];
  totals: {
    perMinute: number;
    approvalRate: number | null;
    latencyP50: number | null;
    latencyP99: number | null;
    failureRate: number | null;
    declinesByReason: [string, number][];
  };
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

export function statsView(auths: AuthorizationStats, deliveries: DeliveryStats): StatsView {
  const bucketMinutes = auths.bucketSeconds / 60;
  const windowMinutes = Math.max(auths.buckets.length * bucketMinutes, 1);
  const { totals } = auths;
  return {
    times: auths.buckets.map((b) => seconds(b.start)),
    perMinute: auths.buckets.map((b) => b.count / bucketMinutes),
    approvalRate: auths.buckets.map((b) => {
      const rate = ratio(b.approved, b.approved + b.declined);
      return rate === null ? null : rate * 100;
    }),
    latencyP50: auths.buckets.map((b) => b.decisionLatencyP50Ms),
    latencyP99: auths.buckets.map((b) => b.decisionLatencyP99Ms),
    deliveryTimes: deliveries.buckets.map((b) => seconds(b.start)),
    failureRate: deliveries.buckets.map((b) => {
      const rate = ratio(b.failed, b.attempts);
      return rate === null ? null : rate * 100;
    }),
    totals: {
      perMinute: totals.count / windowMinutes,
      approvalRate: ratio(totals.approved, totals.approved + totals.declined),
      latencyP50: totals.decisionLatencyP50Ms,
      latencyP99: totals.decisionLatencyP99Ms,
      failureRate: deliveries.totals.failureRate ?? ratio(deliveries.totals.failed, deliveries.totals.attempts),
      declinesByReason: Object.entries(totals.declinedByReason ?? {}).sort((a, b) => b[1] - a[1]),
    },
  };
}
