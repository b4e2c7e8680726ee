/**
 * Event delivery benchmark: signed deliveries per second to a local receiver, enqueue → delivered latency, and the
 * platform's CPU per delivery (per process, from /proc; the receiver runs in its own process and is not counted).
 *   burst:  npx tsx bench/delivery.bench.ts --mode all-in-one --events 20000
 *   steady: npx tsx bench/delivery.bench.ts --mode all-in-one --rate 1000 --seconds 20
 *   distributed: KAFKA_BROKERS=127.0.0.1:9092 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *                npx tsx bench/delivery.bench.ts --mode distributed --events 20000   (or --rate 1000 --seconds 20)
 * Events are published on events.v1 as the engine would (all-in-one: on the in-process bus, so this process is the
 * platform and its CPU counts as the platform's; distributed: produced to Kafka from here).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Kafka, logLevel } from "kafkajs";
import { TOPICS } from "@cardhold/contracts";
import pg from "pg";
import { startAllInOne } from "../apps/cli/src/all-in-one";
import { createScratchDatabase } from "../test/integration/support/scratch-database";
import { startPlatform } from "../test/integration/support/service-processes";
import { eventMessage } from "../test/support/event-message";
import { statementStats, type StatementStats } from "./support/statement-stats";
import { cpuPerOperation, pidFromFile, processTree, readCpu, type ProcessGroups } from "./support/process-cpu";

const { values } = parseArgs({
  options: {
    mode: { type: "string", default: "all-in-one" },
    /** Burst: this many events published at once. */
    events: { type: "string", default: "2000" },
    /** Steady: events per second for `seconds` (instead of a burst). */
    rate: { type: "string" },
    seconds: { type: "string", default: "20" },
    /** All-in-one: also report statements per delivery (pg_stat_statements on the embedded server). */
    statements: { type: "boolean", default: false },
  },
});
const steady = values.rate !== undefined;
const rate = Number(values.rate ?? 0);
const seconds = Number(values.seconds);
const total = steady ? Math.round(rate * seconds) : Number(values.events);
/** Steady mode: events of the first seconds warm the platform up; latency and CPU are read after them. */
const WARM_UP_MS = 3_000;

const now = () => performance.timeOrigin + performance.now();
const publishedAt = new Map<string, number>();
const latencies: number[] = [];
let delivered = 0;
let lastAt = 0;

type Publish = (batch: ReturnType<typeof eventMessage>[]) => Promise<void>;

async function startReceiver(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(new URL("./support/delivery-receiver.ts", import.meta.url)), {
    execArgv: ["--import", "tsx"],
  });
  const url = await new Promise<string>((resolve) => child.once("message", (m: { url: string }) => resolve(m.url)));
  child.on("message", (m: { arrived?: [string, number][] }) => {
    for (const [id, at] of m.arrived ?? []) {
      const sent = publishedAt.get(id);
      if (sent === undefined) continue;
      publishedAt.delete(id);
      delivered += 1;
      lastAt = Math.max(lastAt, at);
      if (sent >= measuredFrom) latencies.push(at - sent);
    }
  });
  return { child, url };
}

let measuredFrom = 0;

async function waitForAll(timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (delivered < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/** Publishes every event (at once, or `rate` a second in 10 ms steps); returns the CPU reading taken after warm-up. */
async function publishAll(events: ReturnType<typeof eventMessage>[], publish: Publish, groups: ProcessGroups) {
  if (!steady) {
    const before = readCpu(groups);
    measuredFrom = now();
    for (const e of events) publishedAt.set(e.eventId, measuredFrom);
    await Promise.all(
      Array.from({ length: Math.ceil(events.length / 500) }, (_, i) => publish(events.slice(i * 500, (i + 1) * 500))),
    );
    return { before, from: measuredFrom, counted: events.length };
  }
  const started = now();
  measuredFrom = started + WARM_UP_MS;
  let before = readCpu(groups);
  let sent = 0;
  let warm = false;
  const publishing: Promise<void>[] = [];
  while (sent < events.length) {
    const due = Math.min(events.length, Math.floor(((now() - started) / 1000) * rate));
    if (!warm && now() >= measuredFrom) {
      before = readCpu(groups);
      warm = true;
    }
    const batch = events.slice(sent, due);
    sent = due;
    const at = now();
    for (const e of batch) publishedAt.set(e.eventId, at);
    // Not awaited: the in-process bus answers once the batch is handled, and the pace must not wait for that.
    if (batch.length > 0) publishing.push(publish(batch));
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(publishing);
  return { before, from: measuredFrom, counted: events.length - Math.round((WARM_UP_MS / 1000) * rate) };
}

function report(mode: string, firstAt: number, cpu: Record<string, number>, statements?: Record<string, unknown>) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1));
  const elapsed = (lastAt - firstAt) / 1000;
  console.log(
    JSON.stringify({
      mode,
      ...(steady ? { offeredPerSecond: rate, seconds } : { events: total }),
      delivered,
      perSecond: steady ? undefined : Math.round(delivered / elapsed),
      p50ms: pct(0.5),
      p99ms: pct(0.99),
      maxMs: pct(1),
      cpuMsPerDelivery: cpu,
      ...(statements && { statements }),
    }),
  );
}

async function run(
  mode: string,
  businessId: string,
  publish: Publish,
  groups: ProcessGroups,
  statements?: StatementStats,
) {
  const events = Array.from({ length: total }, (_, i) =>
    eventMessage(businessId, "card.transaction.created", { amount: -i }),
  );
  await statements?.reset();
  const { before, from, counted } = await publishAll(events, publish, groups);
  await waitForAll();
  const cpu = cpuPerOperation(before, readCpu(groups), counted);
  report(mode, from, cpu, await statements?.report(total));
}

const receiver = await startReceiver();
if (process.env.BENCH_PROGRESS === "1") {
  const t0 = now();
  setInterval(
    () => console.error(JSON.stringify({ t: Math.round(now() - t0), delivered, waiting: publishedAt.size })),
    1_000,
  ).unref();
}

if (values.mode === "all-in-one") {
  const postgresSettings = values.statements ? { shared_preload_libraries: "pg_stat_statements" } : undefined;
  const platform = await startAllInOne({
    port: 0,
    logLevel: "error",
    defaultWebhookUrl: receiver.url,
    postgresSettings,
  });
  const statements = values.statements ? await statementStats(platform.db) : undefined;
  const { businessId } = platform.defaultBusiness;
  while (
    (await platform.db.query("SELECT 1 FROM dispatcher.webhooks WHERE business_id = $1", [businessId])).rowCount === 0
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const self = process.pid;
  const groups: ProcessGroups = {
    "all-in-one": () => [self],
    postgres: () => processTree(self).filter((pid) => pid !== self && pid !== receiver.child.pid),
  };
  const publish: Publish = (batch) =>
    platform.bus.publish(batch.map((e) => ({ topic: TOPICS.events, key: e.key, value: e.value, id: e.id })));
  await run("all-in-one", businessId, publish, groups, statements);
  await platform.stop();
} else {
  const brokers = process.env.KAFKA_BROKERS!.split(",");
  const database = await createScratchDatabase(process.env.DATABASE_URL!);
  const platform = await startPlatform(database.url, process.env.KAFKA_BROKERS!, {
    DB_POOL_SIZE: "10",
    LOG_LEVEL: "error",
  });
  const res = await fetch(`${platform.gatewayUrl}/admin/businesses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-operator-token": platform.operatorToken },
    body: JSON.stringify({ name: "Bench", webhookUrl: receiver.url }),
  });
  const businessId = ((await res.json()) as { data: { business: { id: string } } }).data.business.id;
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  while ((await db.query("SELECT 1 FROM dispatcher.webhooks WHERE business_id = $1", [businessId])).rowCount === 0) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await db.end();
  const producer = new Kafka({ clientId: "delivery-bench", brokers, logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  const postmaster = pidFromFile("/var/lib/postgresql/15/main/postmaster.pid");
  const groups: ProcessGroups = Object.fromEntries(
    [...platform.processes].map(([name, p]) => [name, () => [p.child.pid!]]),
  );
  Object.assign(groups, {
    kafka: () => [pidFromFile("infra/kafka/kafka.pid")].filter((pid): pid is number => pid !== undefined),
    postgres: () => (postmaster ? processTree(postmaster) : []),
  });
  const publish: Publish = async (batch) => {
    await producer.send({
      topic: TOPICS.events,
      acks: -1,
      messages: batch.map((m) => ({ key: m.key, value: JSON.stringify(m.value), headers: { "message-id": m.id } })),
    });
  };
  await run("distributed", businessId, publish, groups);
  await producer.disconnect();
  await platform.stop();
  await database.drop();
}
receiver.child.disconnect();
process.exit(0);
