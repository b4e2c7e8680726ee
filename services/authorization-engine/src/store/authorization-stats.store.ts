import type { Queryable } from "@cardhold/db";
import type { StatsRange } from "@cardhold/contracts";
import type { Scope } from "@cardhold/query";

/** One bucket's counts; `start` null is the whole window. Latencies in ms, null when nothing in it was decided. */
export interface AuthorizationStatsRow {
  start: Date | null;
  count: number;
  approved: number;
  declined: number;
  declined_by_reason: Record<string, number>;
  p50_ms: number | null;
  p99_ms: number | null;
}

/**
 * Every bucket of the range (empty ones included, oldest first) and then the whole window (start null): the
 * authorizations created in it, approved (or since reversed), declined by reason, and the median and 99th percentile
 * of creation → first decision. One read of the range through authorizations_by_created.
 */
export async function authorizationStats(
  db: Queryable,
  scope: Scope,
  range: StatsRange,
): Promise<AuthorizationStatsRow[]> {
  const { rows } = await db.query<AuthorizationStatsRow & Record<string, unknown>>(
    `WITH created AS (
       SELECT date_bin(make_interval(secs => $5::int), created_at, $3::timestamptz) AS start, status,
              CASE WHEN status = 'declined' THEN COALESCE(decline_reason, status_reason, 'unspecified') END AS reason,
              (extract(epoch FROM decided_at - created_at) * 1000)::float8 AS latency_ms
         FROM engine.authorizations
        WHERE business_id = $1 AND mode = $2 AND created_at >= $3::timestamptz AND created_at < $4::timestamptz),
     counts AS (
       SELECT start, count(*)::int AS count,
              count(*) FILTER (WHERE status IN ('approved', 'reversed'))::int AS approved,
              count(*) FILTER (WHERE status = 'declined')::int AS declined,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50_ms,
              percentile_disc(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99_ms
         FROM created GROUP BY GROUPING SETS ((start), ())),
     reasons AS (
       SELECT start, jsonb_object_agg(reason, n) AS by_reason
         FROM (SELECT start, reason, count(*)::int AS n FROM created WHERE reason IS NOT NULL
                GROUP BY GROUPING SETS ((start, reason), (reason))) per_reason
        GROUP BY start),
     buckets AS (
       SELECT generate_series($3::timestamptz, $4::timestamptz - make_interval(secs => $5::int),
                              make_interval(secs => $5::int)) AS start
        UNION ALL SELECT NULL)
     SELECT b.start, COALESCE(c.count, 0) AS count, COALESCE(c.approved, 0) AS approved,
            COALESCE(c.declined, 0) AS declined, COALESCE(r.by_reason, '{}') AS declined_by_reason, c.p50_ms, c.p99_ms
       FROM buckets b
       LEFT JOIN counts c ON c.start IS NOT DISTINCT FROM b.start
       LEFT JOIN reasons r ON r.start IS NOT DISTINCT FROM b.start
      ORDER BY b.start NULLS LAST`,
    [scope.businessId, scope.mode, range.from, range.to, range.bucketSeconds],
  );
  return rows;
}
