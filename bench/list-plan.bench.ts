/**
 * Plan stability of filtered list pages: 1,000,000 customers in the all-in-one's PostgreSQL, then, round after round,
 * a fresh ANALYZE and each filter's compiled list statement: the planner's row estimate, the plan it chose and how
 * long the statement took. A filter whose estimate swings between ANALYZEs changes plan from one day to the next.
 *   npx tsx bench/list-plan.bench.ts [--customers 1000000] [--rounds 6] [--statistics 100]
 * (with fewer than 300,000 customers ANALYZE reads them all and the evenly spaced bounds may all share one segment:
 * see bench/support/bench-customers.ts)
 * `--statistics N` sets customers.metadata's statistics target before the rounds (the migrations set 1000; 100 is
 * PostgreSQL's default), to compare the two on the same data.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { compileListQuery, parseListQuery } from "@cardhold/query";
import { customerResource } from "../services/customer-service/src/store/customers.store";
import { startBenchedAllInOne } from "./support/all-in-one-process";
import { insertBenchCustomers } from "./support/bench-customers";

const { values: args } = parseArgs({
  options: {
    customers: { type: "string", default: "1000000" },
    rounds: { type: "string", default: "6" },
    statistics: { type: "string" },
    filters: {
      type: "string",
      default: [
        "metadata.segment:7 createdAt|gted|2026-01-03T00:00:00Z createdAt|lted|2026-01-05T00:00:00Z",
        "metadata.userId:250000 createdAt|gted|2026-01-03T00:00:00Z",
        "metadata.segment:7",
      ].join(";"),
    },
  },
});

const platform = await startBenchedAllInOne({ LOG_LEVEL: "error" });
const db = new pg.Client({ connectionString: platform.databaseUrl() });
await db.connect();
const { rows } = await db.query<{ business_id: string }>("SELECT business_id FROM gateway.api_keys LIMIT 1");
const scope = { businessId: rows[0]!.business_id, mode: "test" };
// The same customers as bench/list-query.bench.ts.
await insertBenchCustomers(db, scope.businessId, Number(args.customers));
if (args.statistics !== undefined)
  await db.query(`ALTER TABLE customers.customers ALTER COLUMN metadata SET STATISTICS ${Number(args.statistics)}`);

interface PlanNode {
  "Node Type": string;
  "Plan Rows": number;
  "Index Name"?: string;
  Plans?: PlanNode[];
}
/** The plan's shape in one line: each node's type (and index), top down. */
const shape = (node: PlanNode): string =>
  [`${node["Node Type"]}${node["Index Name"] ? ` ${node["Index Name"]}` : ""}`, ...(node.Plans ?? []).map(shape)].join(
    " > ",
  );
const tableScan = (node: PlanNode): PlanNode | undefined =>
  /^(Bitmap Heap Scan|Index Scan|Seq Scan)$/.test(node["Node Type"]) ? node : node.Plans?.map(tableScan).find(Boolean);

for (let round = 1; round <= Number(args.rounds); round++) {
  await db.query("ANALYZE customers.customers");
  for (const filter of args.filters.split(";")) {
    const query = compileListQuery(parseListQuery({ filter, limit: "20" }, customerResource), customerResource, scope);
    const explained = await db.query(`EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
    const plan = (explained.rows[0]!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan;
    const began = performance.now();
    await db.query(query.text, query.values);
    const ms = performance.now() - began;
    const estimatedRows = tableScan(plan)?.["Plan Rows"];
    console.log(JSON.stringify({ round, filter, estimatedRows, ms: +ms.toFixed(1), plan: shape(plan) }));
  }
}

await db.end();
await platform.stop();
process.exit(0);
