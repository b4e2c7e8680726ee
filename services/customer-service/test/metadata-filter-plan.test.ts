import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "@cardhold/db/testing";
import { compileListQuery, parseListQuery } from "@cardhold/query";
import { customerResource } from "../src/store/customers.store";
import { startHarness, type Harness } from "./harness";

const CUSTOMERS = 60_000;
/**
 * One customer in twenty has segment 7 (about 3,000), scattered by a hash: with `i % 20` every histogram bound (each
 * 60th customer when ANALYZE reads the whole table) would fall on segment 0.
 */
const SEGMENTS = 20;
const scope = { businessId: "bus.plan", mode: "test" };

/** The planner's row estimate for the rows the filter keeps (its table scan's, under the sort and the limit). */
async function estimatedMatches(pg: TestDatabase, filter: string): Promise<number> {
  const query = compileListQuery(parseListQuery({ filter, limit: "20" }, customerResource), customerResource, scope);
  const plan = await pg.db.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
  const root = (plan.rows[0]!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan;
  return findTableScan(root)!["Plan Rows"];
}

interface PlanNode {
  "Node Type": string;
  "Plan Rows": number;
  Plans?: PlanNode[];
}

const TABLE_SCANS = new Set(["Bitmap Heap Scan", "Index Scan", "Seq Scan"]);
const findTableScan = (node: PlanNode): PlanNode | undefined =>
  TABLE_SCANS.has(node["Node Type"]) ? node : node.Plans?.map(findTableScan).find(Boolean);

describe("a metadata filter's row estimate (migration 002)", () => {
  let harness: Harness;
  let pg: TestDatabase;

  beforeAll(async () => {
    // The service's start has run its migrations.
    harness = await startHarness();
    pg = harness.pg;
    await pg.db.query(
      `INSERT INTO customers.customers (id, business_id, mode, name, reference, type, claims, verifications, metadata,
                                        created_at, updated_at)
       SELECT 'cus.' || lpad(i::text, 17, '0'), $1, 'test', 'C' || i, 'ref-' || i, 'individual', '{}', '[]',
              jsonb_build_object('userId', i, 'segment', abs(hashint4(i)) % $3::int),
              timestamptz '2026-01-01' + i * interval '1 second', timestamptz '2026-01-01' + i * interval '1 second'
         FROM generate_series(1, $2::int) AS i`,
      [scope.businessId, CUSTOMERS, SEGMENTS],
    );
  }, 120_000);

  afterAll(() => harness?.stop());

  it("keeps a histogram of 1,001 metadata values, not the default 101", async () => {
    await pg.db.query("ANALYZE customers.customers");
    const { rows } = await pg.db.query<{ bounds: number }>(
      `SELECT array_length(histogram_bounds::text::jsonb[], 1) AS bounds
         FROM pg_stats WHERE schemaname = 'customers' AND tablename = 'customers' AND attname = 'metadata'`,
    );
    expect(rows[0]?.bounds).toBe(1_001);
  });

  it("estimates a key held by one customer in twenty within a factor of 1.5, after every ANALYZE", async () => {
    const { rows } = await pg.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM customers.customers WHERE metadata @> '{"segment": 7}'`,
    );
    const actual = rows[0]!.n;
    for (let round = 0; round < 4; round++) {
      await pg.db.query("ANALYZE customers.customers");
      const estimate = await estimatedMatches(pg, "metadata.segment:7");
      expect(estimate).toBeGreaterThan(actual / 1.5);
      expect(estimate).toBeLessThan(actual * 1.5);
    }
  });
});
