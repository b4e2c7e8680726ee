/**
 * Capture flow benchmark: a card network's capture request (the simulation endpoint, through the gateway) until the
 * decided authorization comes back, with a receiver that approves at once. Reports, per offered rate, the latency the
 * platform adds (end to end minus the receiver's own handling time) and the rate achieved.
 *   all-in-one:  npx tsx bench/authorization.bench.ts --mode all-in-one --rates 10,20,40 --seconds 10 [--statements] [--allocations]
 *                [--warm-up-seconds 10] [--silent-receiver]
 *   distributed: KAFKA_BROKERS=127.0.0.1:9092 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *                npx tsx bench/authorization.bench.ts --mode distributed --rates 25,50,100,150 --seconds 10
 * Open loop: requests start at fixed intervals whatever the answers do, so queueing shows in the latency. Ends with a
 * ledger audit: authorizations left undecided and any broken ledger invariant (an empty list when the books are exact).
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Agent } from "undici";
import { createScratchDatabase } from "../test/integration/support/scratch-database";
import { startPlatform } from "../test/integration/support/service-processes";
import { createBusiness } from "../test/support/api-client";
import { ledgerProblems } from "../test/support/ledger-invariants";
import { startBenchedAllInOne } from "./support/all-in-one-process";
import { benchApi, fundedActiveCards } from "./support/bench-api";
import { allocationSampler, type AllocationSampler } from "./support/allocations";
import { statementStats, type StatementStats } from "./support/statement-stats";
import {
  cpuPerOperation,
  pidFromFile,
  processTree,
  readCpu,
  threadCpuMs,
  type ProcessGroups,
} from "./support/process-cpu";

const { values } = parseArgs({
  options: {
    mode: { type: "string", default: "all-in-one" },
    rates: { type: "string", default: "10,20,40" },
    seconds: { type: "string", default: "10" },
    cards: { type: "string", default: "20" },
    /** Connections the load generator may open: beyond them requests queue in the generator, unseen by the platform. */
    connections: { type: "string", default: "256" },
    /** All-in-one: also report statements per authorization (pg_stat_statements on the embedded server). */
    statements: { type: "boolean", default: false },
    /** All-in-one: also report the platform's bytes allocated per authorization, and where (bench/support/allocations.ts). */
    allocations: { type: "boolean", default: false },
    /**
     * Seconds at the first rate before anything is measured (default 0: only a short run at 5/s). A jump from a few
     * requests a second to a hundred-odd costs about a second of slow answers (JIT, new connections, statements
     * prepared on them); this measures the steady state apart from it.
     */
    "warm-up-seconds": { type: "string", default: "0" },
    /**
     * The receiver answers no decision request (a stalled receiver): every authorization ends by its timeout default,
     * and each step reports how long past its 4-second deadline each was answered, and the CPU per default.
     */
    "silent-receiver": { type: "boolean", default: false },
  },
});
const silent = values["silent-receiver"];
/** The 4-second answer window of an authorization request. */
const DEADLINE_MS = 4_000;
const rates = values.rates.split(",").map(Number);
const seconds = Number(values.seconds);
const agent = new Agent({ connections: Number(values.connections), keepAliveTimeout: 30_000 });

/** The receiver approves every decision at once and records how long it held each request. */
const receiverTime = new Map<string, number>();
const receiver = createServer((req, res) => {
  const started = performance.now();
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const event = JSON.parse(Buffer.concat(chunks).toString()) as { event: string; data: { id: string } };
    if (silent && event.event === "card.authorization.request") return void setTimeout(() => res.destroy(), 10_000);
    const body = event.event === "card.authorization.request" ? '{"action":"approve"}' : '{"code":"success"}';
    res.writeHead(200, { "content-type": "application/json" }).end(body);
    if (event.event === "card.authorization.request") receiverTime.set(event.data.id, performance.now() - started);
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const address = receiver.address();
const receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

/** A network's 4-second window plus the 250 ms the issue allows: an answer later than this is late. */
const LATE_MS = 4_250;

const kafka = () => [pidFromFile("infra/kafka/kafka.pid")].filter((pid): pid is number => pid !== undefined);
/**
 * The broker's JIT compiler threads (part of its CPU): large on a broker started minutes before, near nothing on one
 * that has served a run already, so a reading of "kafka" is told apart from the broker's own warm-up.
 */
const kafkaJitMs = () => kafka().reduce((sum, pid) => sum + threadCpuMs(pid, /^C[12]_Compiler/), 0);

/** The platform's processes, by name, for CPU per authorization. */
let cpuGroups: ProcessGroups = {};
let statements: StatementStats | undefined;
/** --allocations: the platform process's bytes allocated per authorization in each step (all-in-one only). */
let allocations: { sampler: AllocationSampler; pid: number } | undefined;

async function step(base: string, key: string, cards: string[], rate: number, forSeconds = seconds) {
  const client = benchApi(base, key, agent);
  const total = Math.round(rate * forSeconds);
  await statements?.reset();
  allocations?.sampler.begin(allocations.pid);
  const cpuBefore = readCpu(cpuGroups);
  const kafkaJitBefore = kafkaJitMs();
  const added: number[] = [];
  /** --silent-receiver: how long past the deadline each timeout default was answered. */
  const pastDeadline: number[] = [];
  let failed = 0;
  /** Refused at once by the engine's load shedding (503 platform-overloaded): nothing was created. */
  let shed = 0;
  const notApproved = new Map<string, number>();
  let late = 0;
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const card = cards[i % cards.length]!;
    sends.push(
      (async () => {
        const t0 = performance.now();
        try {
          const auth = await client.api("POST", `/simulation/cards/${card}/request-authorization/capture`, {
            amount: 100,
            channel: "online",
          });
          const total = performance.now() - t0;
          if (total > LATE_MS) late++;
          if (silent && auth.statusReason === "timeout-error") pastDeadline.push(total - DEADLINE_MS);
          else if (auth.status !== "approved") {
            failed++;
            notApproved.set(
              auth.statusReason ?? auth.status,
              (notApproved.get(auth.statusReason ?? auth.status) ?? 0) + 1,
            );
          } else added.push(total - (receiverTime.get(auth.id) ?? 0));
        } catch (error) {
          // A refusal is an answer too: it counts as late like any other when it comes after the deadline.
          if (performance.now() - t0 > LATE_MS) late++;
          if (String(error).includes(": 503 ") && String(error).includes("platform-overloaded")) shed++;
          else failed++;
        }
      })(),
    );
  }
  await Promise.all(sends);
  const elapsed = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 500)); // the closed and transaction events of the last ones are delivered
  const operations = Math.max(1, added.length + pastDeadline.length);
  const cpuMsPerAuthorization = cpuPerOperation(cpuBefore, readCpu(cpuGroups), operations);
  const kafkaJit = (kafkaJitMs() - kafkaJitBefore) / operations;
  const allocated = await allocations?.sampler.end(allocations.pid, operations);
  const sorted = added.sort((a, b) => a - b);
  const past = pastDeadline.sort((a, b) => a - b);
  return {
    offeredPerSecond: rate,
    requests: total,
    approved: added.length,
    failed,
    shed,
    achievedPerSecond: Math.round(added.length / elapsed),
    p50ms: Number(percentile(sorted, 0.5).toFixed(1)),
    p99ms: Number(percentile(sorted, 0.99).toFixed(1)),
    maxMs: Number((sorted.at(-1) ?? NaN).toFixed(1)),
    cpuMsPerAuthorization,
    ...("kafka" in cpuGroups && { kafkaJitMsPerAuthorization: Number(kafkaJit.toFixed(2)) }),
    ...(notApproved.size > 0 && { notApproved: Object.fromEntries(notApproved) }),
    answeredAfterDeadlinePlus250ms: late,
    ...(silent && {
      timeoutDefaults: past.length,
      pastDeadlineP50ms: Number(percentile(past, 0.5).toFixed(1)),
      pastDeadlineP99ms: Number(percentile(past, 0.99).toFixed(1)),
    }),
    ...(statements && { statements: await statements.report(operations) }),
    ...(allocated && { allocatedKbPerAuthorization: allocated }),
  };
}

async function run(base: string, key: string, mode: string) {
  const cards = await fundedActiveCards(benchApi(base, key, agent), Number(values.cards), "bench");
  await step(base, key, cards, Math.min(5, rates[0]!)); // warm-up: connections, JIT, plans
  const warmUp = Number(values["warm-up-seconds"]);
  if (warmUp > 0) await step(base, key, cards, rates[0]!, warmUp);
  for (const rate of rates) console.log(JSON.stringify({ mode, ...(await step(base, key, cards, rate)) }));
}

/** Where the time goes, over every authorization of the run: p50 and p99 of each stage, from database timestamps. */
async function printTimeline(url: string) {
  const { default: pg } = await import("pg");
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const stages = {
    toDispatcher: "dispatched - created",
    toSend: "sent - dispatched",
    receiver: "answered - sent",
    backToEngine: "decided - answered",
  };
  const columns = Object.entries(stages).flatMap(([name, span]) =>
    [0.5, 0.99].map(
      (p) =>
        `round((percentile_cont(${p}) WITHIN GROUP (ORDER BY extract(epoch FROM ${span}) * 1000))::numeric, 1) AS "${name}_p${p * 100}"`,
    ),
  );
  const { rows } = await db.query(`
    WITH t AS (
      SELECT a.created_at AS created, e.created_at AS dispatched, at.started_at AS sent,
             at.started_at + at.latency_ms * interval '1 millisecond' AS answered, a.updated_at AS decided
        FROM engine.authorizations a
        JOIN dispatcher.events e ON e.resource_id = a.id AND e.kind = 'card.authorization.request'
        JOIN dispatcher.attempts at ON at.event_id = e.id)
    SELECT ${columns.join(", ")} FROM t`);
  console.log(JSON.stringify({ timelineMs: rows[0] }));
  await db.end();
}

/**
 * After the run: the ledger's invariants (test/support/ledger-invariants.ts) and authorizations left undecided, so
 * an overload run also shows that nothing was lost and the books are exact.
 */
async function printLedgerAudit(url: string) {
  const { default: pg } = await import("pg");
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const deadline = Date.now() + 10_000; // the last decisions and deliveries settle
  let undecided = Infinity;
  while (undecided > 0 && Date.now() < deadline) {
    undecided = Number(
      (await db.query("SELECT count(*) AS n FROM engine.authorizations WHERE status = 'pending'")).rows[0].n,
    );
    if (undecided > 0) await new Promise((r) => setTimeout(r, 250));
  }
  console.log(JSON.stringify({ ledgerAudit: { undecided, problems: await ledgerProblems((text) => db.query(text)) } }));
  await db.end();
}

/** The machine's PostgreSQL (the distributed mode's): its postmaster and backends. */
const sharedPostgres = () => {
  const postmaster = pidFromFile("/var/lib/postgresql/15/main/postmaster.pid");
  return postmaster ? processTree(postmaster) : [];
};

if (values.mode === "all-in-one") {
  const profiling: Record<string, string> = values.statements
    ? { POSTGRES_SETTINGS: JSON.stringify({ shared_preload_libraries: "pg_stat_statements" }) }
    : {};
  const sampler = values.allocations ? allocationSampler() : undefined;
  const platform = await startBenchedAllInOne(
    { LOG_LEVEL: "error", DEFAULT_WEBHOOK_URL: receiverUrl, ...profiling, ...sampler?.env },
    sampler?.nodeArgs,
  );
  cpuGroups = { "all-in-one": () => [platform.child.pid!], postgres: platform.postgresPids };
  if (sampler) allocations = { sampler, pid: platform.child.pid! };
  if (values.statements) statements = await statementStats(platform.databaseUrl());
  await run(platform.url, platform.testKey, "all-in-one");
  await printLedgerAudit(platform.databaseUrl());
  await statements?.close();
  await platform.stop();
} else {
  const database = await createScratchDatabase(process.env.DATABASE_URL!);
  const platform = await startPlatform(database.url, process.env.KAFKA_BROKERS!, {
    DB_POOL_SIZE: "10",
    LOG_LEVEL: "error",
  });
  cpuGroups = Object.fromEntries([...platform.processes].map(([name, p]) => [name, () => [p.child.pid!]]));
  Object.assign(cpuGroups, { kafka, postgres: sharedPostgres });
  const key = (
    await createBusiness(platform.gatewayUrl, platform.operatorToken, { name: "Bench", webhookUrl: receiverUrl })
  ).testKey;
  await new Promise((r) => setTimeout(r, 3_000)); // the default webhook reaches the dispatcher
  await run(platform.gatewayUrl, key, "distributed");
  if (process.env.BENCH_TIMELINE) await printTimeline(database.url);
  await printLedgerAudit(database.url);
  await platform.stop();
  await database.drop();
}
receiver.close();
await agent.close();
process.exit(0);
