import type pg from "pg";

/**
 * The list benches' customers, straight into customer-service's table: `total` test-mode customers of one business,
 * `cus.` + a 17-digit number, created a second apart from 2026-01-01, metadata `{userId: n, segment: n % 50}` (a
 * segment holds one customer in fifty). Below 300,000 customers ANALYZE reads every row and its histogram bounds,
 * evenly spaced, can all fall on one segment: plan readings of metadata filters want the million.
 */
export async function insertBenchCustomers(db: pg.Client, businessId: string, total: number): Promise<void> {
  await db.query(
    `INSERT INTO customers.customers (id, business_id, mode, name, reference, type, claims, verifications, metadata, created_at, updated_at)
     SELECT 'cus.' || lpad(i::text, 17, '0'), $1, 'test', 'Customer ' || i, 'ref-' || i, 'individual',
            jsonb_build_object('individualInformation', jsonb_build_object('email', 'c' || i || '@example.com')),
            '["tier-1"]'::jsonb, jsonb_build_object('userId', i, 'segment', i % 50),
            timestamptz '2026-01-01' + i * interval '1 second', timestamptz '2026-01-01' + i * interval '1 second'
       FROM generate_series(1, $2::int) AS i`,
    [businessId, total],
  );
}
