import type { Db } from "@cardhold/db";
import { statsQuerySchema, statsRange, type AuthorizationCounts, type AuthorizationStats } from "@cardhold/contracts";
import { validate } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { authorizationStats, type AuthorizationStatsRow } from "../store/authorization-stats.store";

const countsOf = (row: AuthorizationStatsRow): AuthorizationCounts => ({
  count: row.count,
  approved: row.approved,
  declined: row.declined,
  declinedByReason: row.declined_by_reason,
  decisionLatencyP50Ms: row.p50_ms,
  decisionLatencyP99Ms: row.p99_ms,
});

/**
 * GET /card-authorizations/stats?window=hour|day: the caller's authorizations (its business and mode) per bucket of
 * the last hour or day, and over the whole window. A window other than hour or day is a 400.
 */
export async function getAuthorizationStats(
  db: Db,
  scope: Scope,
  query: unknown,
  now = Date.now(),
): Promise<AuthorizationStats> {
  const { window } = validate(statsQuerySchema, query, "query");
  const range = statsRange(window, now);
  const rows = await authorizationStats(db, scope, range);
  const buckets = rows.filter((r) => r.start !== null);
  const whole = rows.find((r) => r.start === null)!;
  return {
    window,
    bucketSeconds: range.bucketSeconds,
    buckets: buckets.map((r) => ({ start: r.start!.toISOString(), ...countsOf(r) })),
    totals: countsOf(whole),
  };
}
