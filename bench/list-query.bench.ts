/**
 * List query language benchmark: 1,000,000 customers in PostgreSQL, four list queries through the gateway
 * (customer-service and gateway as separate processes) and the same SQL run directly.
 *   bash infra/kafka/start.sh
 *   KAFKA_BROKERS=127.0.0.1:9092 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     npx tsx bench/list-query.bench.ts [--customers 1000000] [--runs 200]
 *   npx tsx bench/list-query.bench.ts --mode all-in-one [--customers 1000000]     # `cardhold dev` as its own process
 *   add --floor: the same SQL behind a bare node:http server in its own process (bench/support/list-floor-server.ts),
 *   the least any HTTP list can cost here: HTTP in, one statement, JSON out
 * Prints one JSON line per query and the EXPLAIN (ANALYZE) plans; creates and drops its own database. Each query runs
 * through the gateway, straight to customer-service (distributed only, with the gateway's internal headers: the
 * difference is the gateway's own cost) and as direct SQL. After `--warm-up-runs` unrecorded rounds (default 100), the
 * paths take turns one request at a time, so machine drift and late compiles weigh on every path alike.
 */
import { fork } from "node:child_process";
import { once } from "node:events";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { INTERNAL_HEADERS } from "@cardhold/platform";
import { compileCountQuery, compileListQuery, parseListQuery } from "@cardhold/query";
import { customerResource } from "../services/customer-service/src/store/customers.store";
import { createScratchDatabase } from "../test/integration/support/scratch-database";
import { startPlatform } from "../test/integration/support/service-processes";
import { startBenchedAllInOne } from "./support/all-in-one-process";
import { insertBenchCustomers } from "./support/bench-customers";

const { values: args } = parseArgs({
  options: {
    customers: { type: "string", default: "1000000" },
    runs: { type: "string", default: "200" },
    only: { type: "string" },
    mode: { type: "string", default: "distributed" },
    floor: { type: "boolean", default: false },
    /** Unrecorded requests of every path before the measured ones (per query). */
    "warm-up-runs": { type: "string", default: "100" },
  },
});
const TOTAL = Number(args.customers);
const RUNS = Number(args.runs);
const WARM_UP_RUNS = Number(args["warm-up-runs"]);

/** The bench measures a list's cost, not the rate limit: one key sends thousands of lists as fast as answered. */
const UNLIMITED = {
  RATE_LIMIT_PER_KEY: "1000000",
  RATE_LIMIT_BURST_PER_KEY: "1000000",
  RATE_LIMIT_PER_BUSINESS: "1000000",
  RATE_LIMIT_BURST_PER_BUSINESS: "1000000",
};

interface BenchedPlatform {
  gatewayUrl: string;
  databaseUrl: string;
  /** customer-service's own port (distributed), for the gateway's own cost. */
  servicePort?: number;
  internalToken?: string;
  business: { id: string };
  testKey: string;
  stop(): Promise<void>;
}

async function distributed(): Promise<BenchedPlatform> {
  const database = await createScratchDatabase(process.env.DATABASE_URL!);
  const platform = await startPlatform(database.url, process.env.KAFKA_BROKERS!, UNLIMITED);
  const created = await fetch(`${platform.gatewayUrl}/admin/businesses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-operator-token": platform.operatorToken },
    body: JSON.stringify({ name: "Bench", webhookUrl: "http://127.0.0.1:4999/hook" }),
  });
  const { business, testKey } = ((await created.json()) as { data: { business: { id: string }; testKey: string } })
    .data;
  return {
    gatewayUrl: platform.gatewayUrl,
    databaseUrl: database.url,
    servicePort: platform.ports["customer-service"],
    internalToken: platform.env.INTERNAL_TOKEN!,
    business,
    testKey,
    stop: async () => {
      await platform.stop();
      await database.drop();
    },
  };
}

/** The all-in-one (gateway and customer-service in one process, no hop between them); its default business. */
async function allInOne(): Promise<BenchedPlatform> {
  const platform = await startBenchedAllInOne({ LOG_LEVEL: "error", ...UNLIMITED });
  const client = new pg.Client({ connectionString: platform.databaseUrl() });
  await client.connect();
  const { rows } = await client.query<{ business_id: string }>("SELECT business_id FROM gateway.api_keys LIMIT 1");
  await client.end();
  return {
    gatewayUrl: platform.url,
    databaseUrl: platform.databaseUrl(),
    business: { id: rows[0]!.business_id },
    testKey: platform.testKey,
    stop: platform.stop,
  };
}

const platform = args.mode === "all-in-one" ? await allInOne() : await distributed();
const { business, testKey } = platform;
const db = new pg.Client({ connectionString: platform.databaseUrl });
await db.connect();
const scope = { businessId: business.id, mode: "test" };

const started = performance.now();
await insertBenchCustomers(db, business.id, TOTAL);
await db.query("ANALYZE customers.customers");
console.error(`inserted ${TOTAL} customers in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const deep = `cus.${String(Math.floor(TOTAL / 2)).padStart(17, "0")}`;
const queries: Record<string, Record<string, string>> = {
  "filtered (metadata key + createdAt range)": {
    filter: "metadata.segment:7 createdAt|gted|2026-01-03T00:00:00Z createdAt|lted|2026-01-05T00:00:00Z",
    limit: "20",
  },
  "deep walk (after the 500,000th)": { after: deep, limit: "20" },
  "sorted (sort=reference)": { sort: "reference", limit: "20" },
  "countTotal (metadata key)": { filter: "metadata.segment:7", countTotal: "", limit: "20" },
};

/**
 * One GET over a kept-alive connection with node:http: a lean client, so the figure is the platform's (fetch's own
 * overhead is ~0.15 ms p50 per request here, node:http's ~0.04 ms, against a server that answers at once).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    })
      .on("error", reject)
      .end();
  });
}

/** The floor server (--floor), forked once; each query is registered with it before it is read. */
async function startFloor(databaseUrl: string) {
  const child = fork(fileURLToPath(new URL("./support/list-floor-server.ts", import.meta.url)), [databaseUrl], {
    execArgv: ["--import", "tsx"],
  });
  const [{ port }] = (await once(child, "message")) as [{ port: number }];
  return {
    async register(name: string, sql: { text: string; values: unknown[] }) {
      child.send({ name, ...sql });
      await once(child, "message");
      return `http://127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    stop: () => child.disconnect(),
  };
}
const floorServer = args.floor ? await startFloor(platform.databaseUrl) : undefined;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

/** One request of a path: a GET through the gateway, to customer-service, to the floor, or the SQL alone. */
type Path = () => Promise<void>;
/** How long one request of a path took (ms). */
const timed = async (path: Path) => {
  const began = performance.now();
  await path();
  return performance.now() - began;
};
const expectOk = (what: string) => (status: number) => {
  if (status !== 200) throw new Error(`${what}: HTTP ${status}`);
};

for (const [name, params] of Object.entries(queries).filter(([n]) => !args.only || n.startsWith(args.only))) {
  const search = new URLSearchParams(params).toString().replace(/=(&|$)/g, "$1");
  // The same request straight to customer-service with the headers the gateway adds: what the gateway itself costs.
  const serviceHeaders = {
    [INTERNAL_HEADERS.token]: platform.internalToken ?? "",
    [INTERNAL_HEADERS.businessId]: business.id,
    [INTERNAL_HEADERS.mode]: "test",
    [INTERNAL_HEADERS.keyId]: "bench",
    [INTERNAL_HEADERS.requestId]: "req.bench",
    [INTERNAL_HEADERS.receivedAt]: "0",
  };
  const q = parseListQuery(params, customerResource);
  const list = compileListQuery(q, customerResource, scope);
  const count = q.countTotal ? compileCountQuery(q, customerResource, scope) : undefined;
  // The floor: the list statement alone behind bare HTTP (the count, when asked, is not part of it).
  const floorUrl = floorServer && !count ? await floorServer.register(name, list) : undefined;
  const paths: Record<"gateway" | "service" | "direct" | "floor", Path | undefined> = {
    gateway: () =>
      get(`${platform.gatewayUrl}/customers?${search}`, { authorization: `Bearer ${testKey}` }).then(expectOk(name)),
    service: platform.servicePort
      ? () =>
          get(`http://127.0.0.1:${platform.servicePort}/customers?${search}`, serviceHeaders).then(
            expectOk(`${name}: customer-service`),
          )
      : undefined,
    direct: async () => {
      await db.query(list.text, list.values);
      if (count) await db.query(count.text, count.values);
    },
    floor: floorUrl ? () => get(floorUrl, {}).then(expectOk(`${name}: floor`)) : undefined,
  };
  const times = { gateway: [] as number[], service: [] as number[], direct: [] as number[], floor: [] as number[] };
  // Warm-up runs are not recorded (each process's code is compiled, each query's pages cached); then the paths take
  // turns, one request each, so a drifting machine or a late compile weighs on all of them alike.
  for (let i = -WARM_UP_RUNS; i < RUNS; i++) {
    for (const [path, run] of Object.entries(paths) as Array<[keyof typeof times, Path | undefined]>) {
      if (!run) continue;
      const ms = await timed(run);
      if (i >= 0) times[path].push(ms);
    }
  }
  const { gateway, service, direct, floor } = times;
  const f50 = floor.length > 0 ? percentile(floor, 0.5) : undefined;
  const g50 = percentile(gateway, 0.5);
  const d50 = percentile(direct, 0.5);
  const s50 = service.length > 0 ? percentile(service, 0.5) : undefined;
  console.log(
    JSON.stringify({
      query: name,
      mode: args.mode,
      params,
      runs: RUNS,
      gatewayP50ms: +g50.toFixed(2),
      gatewayP99ms: +percentile(gateway, 0.99).toFixed(2),
      serviceP50ms: s50 && +s50.toFixed(2),
      gatewayFixedCostP50ms: s50 && +(g50 - s50).toFixed(2),
      directSqlP50ms: +d50.toFixed(2),
      directSqlP99ms: +percentile(direct, 0.99).toFixed(2),
      ratioP50: +(g50 / d50).toFixed(2),
      floorP50ms: f50 && +f50.toFixed(2),
      floorToDirectSqlP50: f50 && +(f50 / d50).toFixed(2),
      gatewayToFloorP50: f50 && +(g50 / f50).toFixed(2),
    }),
  );
  for (const sql of [list, count].filter((s): s is { text: string; values: unknown[] } => Boolean(s))) {
    const plan = await db.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql.text}`, sql.values);
    console.log(`--- plan: ${name}\n${plan.rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
  }
}

await db.end();
floorServer?.stop();
await platform.stop();
process.exit(0);
