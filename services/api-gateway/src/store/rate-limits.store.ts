import type { Queryable } from "@cardhold/db";
import type { RateLimitOverride } from "../rate-limiter";

type OverrideRow = {
  business_id: string;
  per_key_rate: number | null;
  per_key_burst: number | null;
  per_business_rate: number | null;
  per_business_burst: number | null;
};

function toOverride(row: OverrideRow): RateLimitOverride {
  return {
    ...(row.per_key_rate !== null && { perKey: { rate: row.per_key_rate, burst: row.per_key_burst! } }),
    ...(row.per_business_rate !== null && {
      perBusiness: { rate: row.per_business_rate, burst: row.per_business_burst! },
    }),
  };
}

export async function loadOverrides(db: Queryable): Promise<Map<string, RateLimitOverride>> {
  const { rows } = await db.query<OverrideRow>("SELECT * FROM gateway.rate_limits");
  return new Map(rows.map((row) => [row.business_id, toOverride(row)]));
}

export async function findOverride(db: Queryable, businessId: string): Promise<RateLimitOverride | undefined> {
  const { rows } = await db.query<OverrideRow>("SELECT * FROM gateway.rate_limits WHERE business_id = $1", [
    businessId,
  ]);
  return rows[0] && toOverride(rows[0]);
}

/** Replaces the business's override: a policy left out goes back to the default. */
export async function saveOverride(db: Queryable, businessId: string, o: RateLimitOverride): Promise<void> {
  await db.query(
    `INSERT INTO gateway.rate_limits
       (business_id, per_key_rate, per_key_burst, per_business_rate, per_business_burst, updated_at)
     VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT (business_id) DO UPDATE SET per_key_rate = EXCLUDED.per_key_rate,
       per_key_burst = EXCLUDED.per_key_burst, per_business_rate = EXCLUDED.per_business_rate,
       per_business_burst = EXCLUDED.per_business_burst, updated_at = EXCLUDED.updated_at`,
    [businessId, o.perKey?.rate, o.perKey?.burst, o.perBusiness?.rate, o.perBusiness?.burst],
  );
}

export async function deleteOverride(db: Queryable, businessId: string): Promise<void> {
  await db.query("DELETE FROM gateway.rate_limits WHERE business_id = $1", [businessId]);
}

/** This instance's running totals, one statement for every bucket that changed. */
export async function writeUsage(db: Queryable, instance: string, rows: { bucket: string; used: number }[]) {
  await db.query(
    `INSERT INTO gateway.rate_limit_usage (bucket, instance, used, updated_at)
     SELECT bucket, $1, used, now() FROM unnest($2::text[], $3::bigint[]) AS u(bucket, used)
     ON CONFLICT (bucket, instance) DO UPDATE SET used = EXCLUDED.used, updated_at = EXCLUDED.updated_at`,
    [instance, rows.map((r) => r.bucket), rows.map((r) => r.used)],
  );
}

export interface UsageRow {
  bucket: string;
  instance: string;
  used: number;
}

/** The other instances' totals written after `since` (all of them when null), and the database's clock. */
export async function readUsage(
  db: Queryable,
  instance: string,
  since: Date | null,
): Promise<{ now: Date; rows: UsageRow[] }> {
  const { rows } = await db.query<{ now: Date; usage: [string, string, number][] }>(
    `SELECT now() AS now, coalesce((SELECT json_agg(json_build_array(bucket, instance, used))
       FROM gateway.rate_limit_usage WHERE instance <> $1 AND ($2::timestamptz IS NULL OR updated_at > $2)), '[]') AS usage`,
    [instance, since],
  );
  const row = rows[0]!;
  return { now: row.now, rows: row.usage.map(([bucket, from, used]) => ({ bucket, instance: from, used })) };
}

export async function deleteStaleUsage(db: Queryable, olderThanSeconds: number): Promise<void> {
  await db.query("DELETE FROM gateway.rate_limit_usage WHERE updated_at < now() - make_interval(secs => $1)", [
    olderThanSeconds,
  ]);
}
