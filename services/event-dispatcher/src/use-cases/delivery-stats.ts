import type { Db } from "@cardhold/db";
import { statsQuerySchema, statsRange, type DeliveryStats } from "@cardhold/contracts";
import { validate } from "@cardhold/platform";
import { attemptCounts } from "../store/attempts.store";

/**
 * GET /events/stats?window=hour|day: the caller's delivery attempts (its business and mode, every webhook) per
 * bucket of the last hour or day, the failed ones among them, and the window's failure rate. Any other window is a
 * 400.
 */
export async function getDeliveryStats(
  db: Db,
  scope: { businessId: string; mode: string },
  query: unknown,
  now = Date.now(),
): Promise<DeliveryStats> {
  const { window } = validate(statsQuerySchema, query, "query");
  const range = statsRange(window, now);
  const rows = await attemptCounts(db, scope, range);
  const attempts = rows.reduce((n, r) => n + r.attempts, 0);
  const failed = rows.reduce((n, r) => n + r.failed, 0);
  return {
    window,
    bucketSeconds: range.bucketSeconds,
    buckets: rows.map((r) => ({ start: r.start.toISOString(), attempts: r.attempts, failed: r.failed })),
    totals: { attempts, failed, failureRate: attempts === 0 ? 0 : failed / attempts },
  };
}
