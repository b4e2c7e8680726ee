/**
 * GET /card-authorizations/stats and GET /events/stats: counts per time bucket over the last hour or day, for the
 * console's charts. The engine and the dispatcher share the windows and the bucket arithmetic here.
 */
import { z } from "zod";

/** The last hour in one-minute buckets, the last day in fifteen-minute buckets. */
export const STATS_WINDOWS = {
  hour: { bucketSeconds: 60, buckets: 60 },
  day: { bucketSeconds: 900, buckets: 96 },
} as const;
export type StatsWindow = keyof typeof STATS_WINDOWS;

/** `?window=hour|day` (hour when absent); any other value, or the parameter given twice, is a 400. */
export const statsQuerySchema = z.object({
  window: z.enum(["hour", "day"]).default("hour").describe("hour: 60 one-minute buckets; day: 96 fifteen-minute ones"),
});

export interface StatsRange {
  window: StatsWindow;
  bucketSeconds: number;
  /** The first bucket's start (inclusive) and the last bucket's end (exclusive). */
  from: Date;
  to: Date;
}

/**
 * The window's buckets up to `now` (ms): aligned on whole buckets since the Unix epoch (UTC), the last one the bucket
 * `now` is in (so it is still filling).
 */
export function statsRange(window: StatsWindow, now: number): StatsRange {
  const { bucketSeconds, buckets } = STATS_WINDOWS[window];
  const bucketMs = bucketSeconds * 1000;
  const to = Math.floor(now / bucketMs) * bucketMs + bucketMs;
  return { window, bucketSeconds, from: new Date(to - buckets * bucketMs), to: new Date(to) };
}

const count = (description: string) => z.number().int().describe(description);
const latency = (description: string) => z.number().nullable().describe(`${description}; null when none was decided`);

const authorizationCounts = z.object({
  count: count("Authorizations created in the bucket"),
  approved: count("Of them, approved (reversed ones included: they were approved, then the network reversed them)"),
  declined: count("Of them, declined"),
  declinedByReason: z
    .record(z.string(), z.number().int())
    .describe("The declined ones by declineReason, else statusReason (timeout-error …), else `unspecified`"),
  decisionLatencyP50Ms: latency("Median time from an authorization's creation to its first decision (ms)"),
  decisionLatencyP99Ms: latency("99th percentile of the same"),
});

const bucketStart = z.string().describe("The bucket's start (ISO 8601, UTC); it lasts bucketSeconds");

export const authorizationStatsSchema = z.object({
  window: z.enum(["hour", "day"]),
  bucketSeconds: z.number().int(),
  buckets: z.array(z.object({ start: bucketStart, ...authorizationCounts.shape })).describe("Oldest first"),
  totals: authorizationCounts.describe("The whole window"),
});
export type AuthorizationStats = z.infer<typeof authorizationStatsSchema>;
export type AuthorizationCounts = z.infer<typeof authorizationCounts>;

export const deliveryStatsSchema = z.object({
  window: z.enum(["hour", "day"]),
  bucketSeconds: z.number().int(),
  buckets: z
    .array(
      z.object({
        start: bucketStart,
        attempts: count("Delivery attempts made in the bucket, to any of the business's webhooks"),
        failed: count("Of them, not answered HTTP 200 (an error status, a timeout, no connection)"),
      }),
    )
    .describe("Oldest first"),
  totals: z.object({
    attempts: count("Attempts in the whole window"),
    failed: count("Failed attempts in the whole window"),
    failureRate: z.number().describe("failed / attempts, 0 when there were none"),
  }),
});
export type DeliveryStats = z.infer<typeof deliveryStatsSchema>;
