import type { Queryable } from "@cardhold/db";
import type { StatsRange } from "@cardhold/contracts";

export interface AttemptCountsRow {
  start: Date;
  attempts: number;
  failed: number;
}

/**
 * A business's delivery attempts in each bucket of the range (empty ones included, oldest first), and how many of
 * them failed: any answer but HTTP 200 (an error status, a timeout, no connection), as a notification counts it
 * (isDelivered). One range read of attempts_by_business, from the index alone.
 */
export async function attemptCounts(
  db: Queryable,
  scope: { businessId: string; mode: string },
  range: StatsRange,
): Promise<AttemptCountsRow[]> {
  const { rows } = await db.query<AttemptCountsRow & Record<string, unknown>>(
    `WITH buckets AS (
       SELECT generate_series($3::timestamptz, $4::timestamptz - make_interval(secs => $5::int),
                              make_interval(secs => $5::int)) AS start),
     counted AS (
       SELECT date_bin(make_interval(secs => $5::int), started_at, $3::timestamptz) AS start, count(*)::int AS attempts,
              count(*) FILTER (WHERE http_status IS DISTINCT FROM 200)::int AS failed
         FROM dispatcher.attempts
        WHERE business_id = $1 AND mode = $2 AND started_at >= $3::timestamptz AND started_at < $4::timestamptz
        GROUP BY 1)
     SELECT b.start, COALESCE(c.attempts, 0) AS attempts, COALESCE(c.failed, 0) AS failed
       FROM buckets b LEFT JOIN counted c ON c.start = b.start
      ORDER BY b.start`,
    [scope.businessId, scope.mode, range.from, range.to, range.bucketSeconds],
  );
  return rows;
}
