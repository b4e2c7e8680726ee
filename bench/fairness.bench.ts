/**
 * Fairness (issue 21 item 2): does one business flooding lists at its limit move another business's captures?
 *   npx tsx bench/fairness.bench.ts [--mode all-in-one|distributed] [--rate 20] [--seconds 10] [--rounds 3] [--cards 5]
 * The all-in-one (`cardhold dev`, its own process, 127.0.0.1 only), or the six services as processes on Kafka and
 * the machine's PostgreSQL (`--mode distributed`, KAFKA_BROKERS and DATABASE_URL set), with the default limits. The
 * capturing business (webhook: a receiver here that approves at once) captures at a fixed
 * rate, open loop, first alone, then while a second business (10 customers) lists customers from its own process:
 * at `--flood-rate` a second (its limit), or with `--flood-rate 0` over `--flood-connections` connections as fast
 * as answers come back (429s included: it never waits for Retry-After). The two phases alternate `--rounds` times
 * (drift on a shared machine falls on both alike); prints each round's p50/p99 with each process's CPU ms per second
 * (all-in-one: the platform and PostgreSQL), both conditions' pooled p50/p99 and what the flooder was given.
 * `--allocations` (all-in-one) first runs the flooder alone and prints the platform's KB allocated per list, and where.
 * `--neighbour stalled`: the second business instead captures at `--stalled-rate` a second (open loop) with a webhook
 * that never answers a decision request (a stalled receiver: each of its captures ends by its timeout default), from
 * 4 s before the measured phase; prints how its captures ended.
 */
import { execFileSync, fork } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Agent } from "undici";
import { createScratchDatabase } from "../test/integration/support/scratch-database";
import { startPlatform } from "../test/integration/support/service-processes";
import { createBusiness } from "../test/support/api-client";
import { startBenchedAllInOne } from "./support/all-in-one-process";
import { allocationSampler, type AllocationSampler } from "./support/allocations";
import { benchApi, fundedActiveCards } from "./support/bench-api";
import { readCpu, type ProcessGroups } from "./support/process-cpu";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "20" },
    seconds: { type: "string", default: "10" },
    "flood-connections": { type: "string", default: "50" },
    /** List requests a second, open loop (default 50: the per-key default limit); 0: as fast as answers come. */
    "flood-rate": { type: "string", default: "50" },
    cards: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    /** all-in-one (`cardhold dev`), or distributed (KAFKA_BROKERS and DATABASE_URL set; the machine's PostgreSQL). */
    mode: { type: "string", default: "all-in-one" },
    /** Pin the platform's processes to CPU 0 and this bench (load, receiver, flooder) to CPU 1 (Linux taskset). */
    pin: { type: "boolean", default: false },
    /** All-in-one: first, the flooder alone for `--seconds`, and the platform's bytes allocated per list. */
    allocations: { type: "boolean", default: false },
    /** lists (the flooder above), or stalled: a business capturing with a webhook that never decides. */
    neighbour: { type: "string", default: "lists" },
    "stalled-rate": { type: "string", default: "50" },
  },
});
const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
const OPERATOR = "operator-token-for-the-fairness-bench";

const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const event = JSON.parse(Buffer.concat(chunks).toString()) as { event: string };
    const body = event.event === "card.authorization.request" ? '{"action":"approve"}' : '{"code":"success"}';
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const port = (receiver.address() as { port: number }).port;

/** The stalled neighbour's webhook: holds each decision request (as a stalled receiver does), answers the rest. */
const stalledReceiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const event = JSON.parse(Buffer.concat(chunks).toString()) as { event: string };
    if (event.event === "card.authorization.request") return void setTimeout(() => res.destroy(), 10_000);
    res.writeHead(200, { "content-type": "application/json" }).end('{"code":"success"}');
  });
});
await new Promise<void>((r) => stalledReceiver.listen(0, "127.0.0.1", r));
const stalledHook = `http://127.0.0.1:${(stalledReceiver.address() as { port: number }).port}/hook`;

const percentile = (sorted: number[], p: number) =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN).toFixed(1));

/** Captures at `rate` a second for `seconds`, open loop: each one's time to its decided answer. */
async function captures(base: string, key: string, cards: string[], rate: number, seconds: number) {
  const client = benchApi(base, key, agent);
  const times: number[] = [];
  let notApproved = 0;
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const path = `/simulation/cards/${cards[i % cards.length]}/request-authorization/capture`;
    sends.push(
      (async () => {
        const t0 = performance.now();
        const res = await client.call("POST", path, { amount: 100, channel: "online" }).catch(() => undefined);
        if (res?.body?.data?.status === "approved") times.push(performance.now() - t0);
        else notApproved++;
      })(),
    );
  }
  await Promise.all(sends);
  return { times, notApproved };
}

function summary(times: number[], notApproved: number) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    captures: times.length + notApproved,
    approved: times.length,
    notApproved,
    p50ms: percentile(sorted, 0.5),
    p99ms: percentile(sorted, 0.99),
  };
}

/** The flooder in its own process (bench/support/list-flooder.ts) until the returned function stops it. */
async function flood(base: string, key: string, rate: number, connections: number) {
  const args = [base, key, String(rate), String(connections), "/customers?limit=10"];
  const child = fork(fileURLToPath(new URL("./support/list-flooder.ts", import.meta.url)), args, {
    execArgv: ["--import", "tsx"],
  });
  await once(child, "message");
  return async () => {
    child.send("stop");
    const [{ seconds, counts }] = (await once(child, "message")) as [
      { seconds: number; counts: Record<number, number> },
    ];
    return {
      seconds: Number(seconds.toFixed(1)),
      byStatus: counts,
      admittedPerSecond: Math.round((counts[200] ?? 0) / seconds),
    };
  };
}

/**
 * The stalled neighbour: captures at `rate` a second, open loop, until the returned function stops it and says how
 * they ended (by status and statusReason, or the HTTP status of a refusal).
 */
function stalledNeighbour(base: string, key: string, cards: string[], rate: number) {
  const client = benchApi(base, key, agent);
  const endings: Record<string, number> = {};
  const sends: Promise<void>[] = [];
  let stopped = false;
  const started = performance.now();
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const path = `/simulation/cards/${cards[i % cards.length]}/request-authorization/capture`;
      sends.push(
        client.call("POST", path, { amount: 100, channel: "online" }).then(
          (res) => {
            const ending = res.status < 300 ? `${res.body.data.status} ${res.body.data.statusReason}` : res.status;
            endings[ending] = (endings[ending] ?? 0) + 1;
          },
          () => void (endings.error = (endings.error ?? 0) + 1),
        ),
      );
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    await Promise.all(sends);
    return { stalledRate: rate, sent: sends.length, endings };
  };
}

/** The flooder's customers: its lists answer full pages, as a real tenant's do. */
async function seedCustomers(client: ReturnType<typeof benchApi>, count: number) {
  for (let i = 0; i < count; i++) {
    await client.api("POST", "/customers", {
      name: `Flooded holder ${i}`,
      reference: `flood-${i}`,
      type: "individual",
      verifications: ["tier-1"],
      metadata: {},
      claims: {
        individualInformation: {
          firstName: "Flood",
          lastName: `Holder${i}`,
          email: `flood${i}@example.com`,
          phoneNumber: "+2348000000001",
          dateOfBirth: "1990-01-01",
        },
      },
    });
  }
}

/** CPU ms per second of wall time of each group, from now until the returned function is called. */
function cpuPerSecond(groups: ProcessGroups) {
  const before = readCpu(groups);
  const t0 = performance.now();
  return () => {
    const after = readCpu(groups);
    const seconds = (performance.now() - t0) / 1000;
    return Object.fromEntries(Object.keys(after).map((k) => [k, Math.round((after[k]! - (before[k] ?? 0)) / seconds)]));
  };
}

/** What the bench runs against: the gateway, the capturing business's key, whose CPU it reads, how to stop it. */
interface Target {
  base: string;
  /** The all-in-one's process id, for the allocation sampler. */
  platformPid?: number;
  key: string;
  operatorToken: string;
  groups: ProcessGroups;
  stop(): Promise<void>;
}

async function allInOne(sampler?: AllocationSampler): Promise<Target> {
  const platform = await startBenchedAllInOne(
    { LOG_LEVEL: "error", OPERATOR_TOKEN: OPERATOR, DEFAULT_WEBHOOK_URL: hook, ...sampler?.env },
    sampler?.nodeArgs,
  );
  const groups = { platform: () => [platform.child.pid!], postgres: platform.postgresPids };
  const { url: base, testKey: key, stop } = platform;
  return { base, key, operatorToken: OPERATOR, groups, stop, platformPid: platform.child.pid! };
}

/** The six services as processes on KAFKA_BROKERS and a scratch database on DATABASE_URL (the machine's server). */
async function distributed(): Promise<Target> {
  const database = await createScratchDatabase(process.env.DATABASE_URL!);
  const platform = await startPlatform(database.url, process.env.KAFKA_BROKERS!, { LOG_LEVEL: "error" });
  const groups: ProcessGroups = Object.fromEntries(
    [...platform.processes].map(([name, p]) => [name, () => [p.child.pid!]]),
  );
  const business = await createBusiness(platform.gatewayUrl, platform.operatorToken, {
    name: "Fair",
    webhookUrl: hook,
  });
  await new Promise((r) => setTimeout(r, 3_000)); // the default webhook reaches the dispatcher
  return {
    base: platform.gatewayUrl,
    key: business.testKey,
    operatorToken: platform.operatorToken,
    groups,
    stop: async () => {
      await platform.stop();
      await database.drop();
    },
  };
}

const hook = `http://127.0.0.1:${port}/hook`;
const sampler = values.allocations && values.mode !== "distributed" ? allocationSampler() : undefined;
const target = values.mode === "distributed" ? await distributed() : await allInOne(sampler);

/** The flooder at `--flood-rate` over `--flood-connections`, listing as the business whose key it is given. */
const floodAsConfigured = (key: string) =>
  flood(target.base, key, Number(values["flood-rate"]), Number(values["flood-connections"]));

/** --allocations: the flooder alone for `seconds` after a warm-up, sampled; the platform's KB allocated per list. */
async function listAllocations(flooderKey: string, seconds: number) {
  const floodFor = async (ms: number) => {
    const stop = await floodAsConfigured(flooderKey);
    await new Promise((r) => setTimeout(r, ms));
    return stop();
  };
  await floodFor(3_000); // warm-up: JIT, plans, connections
  sampler!.begin(target.platformPid!);
  const cpu = cpuPerSecond(target.groups);
  const flooding = await floodFor(seconds * 1000);
  const cpuMsPerS = cpu();
  const lists = Object.values(flooding.byStatus).reduce((sum, n) => sum + n, 0);
  const report = await sampler!.end(target.platformPid!, lists);
  console.log(JSON.stringify({ phase: "lists alone, allocations", ...flooding, cpuMsPerS, ...report }, null, 1));
}
/** Every thread of the platform's processes on CPU 0, the bench's own (and the flooder it forks) on CPU 1. */
function pinApart(groups: ProcessGroups) {
  const platformPids = Object.values(groups).flatMap((pids) => pids());
  for (const pid of platformPids) execFileSync("taskset", ["-a", "-pc", "0", String(pid)], { stdio: "ignore" });
  execFileSync("taskset", ["-a", "-pc", "1", String(process.pid)], { stdio: "ignore" });
}

/** GC pauses (count and ms by kind) and event-loop delay of the platform process, from its /metrics. */
async function runtimeMetrics(base: string): Promise<Record<string, number>> {
  const answer = await fetch(`${base}/metrics`, { headers: { "x-operator-token": target.operatorToken } });
  const lines = (await answer.text()).split("\n");
  const read = (name: string, kind?: string) => {
    const line = lines.find((l) => l.startsWith(`${name}{`) && (!kind || l.includes(`kind="${kind}"`)));
    return Number(line?.slice(line.lastIndexOf(" ") + 1) ?? NaN);
  };
  return {
    gcMinorCount: read("nodejs_gc_duration_seconds_count", "minor"),
    gcMinorMs: read("nodejs_gc_duration_seconds_sum", "minor") * 1000,
    gcMajorCount: read("nodejs_gc_duration_seconds_count", "major"),
    gcMajorMs: read("nodejs_gc_duration_seconds_sum", "major") * 1000,
    gcIncrementalMs: read("nodejs_gc_duration_seconds_sum", "incremental") * 1000,
    loopP99Ms: read("nodejs_eventloop_lag_p99_seconds") * 1000,
    loopMaxMs: read("nodejs_eventloop_lag_max_seconds") * 1000,
  };
}
const delta = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(b).map((k) => [k, Number((k.startsWith("loop") ? b[k]! : b[k]! - a[k]!).toFixed(1))]));

try {
  const { base, key: captureKey, groups } = target;
  if (values.pin) pinApart(groups);
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  const cards = await fundedActiveCards(benchApi(base, captureKey, agent), Number(values.cards), "fair");
  const stalled = values.neighbour === "stalled";
  const besideLabel = stalled ? "captures beside a stalled business" : "captures while flooded";
  const flooderBusiness = { name: "Flooder", webhookUrl: stalled ? stalledHook : "http://127.0.0.1:9/hook" };
  const flooder = await createBusiness(base, target.operatorToken, flooderBusiness);
  await seedCustomers(benchApi(base, flooder.testKey, agent), 10);
  const stalledCards = stalled ? await fundedActiveCards(benchApi(base, flooder.testKey, agent), 5, "stalled") : [];
  /** The neighbour of the second phase: the list flooder, or the stalled business (4 s ahead: its places fill up). */
  const neighbour = async () => {
    if (!stalled) return floodAsConfigured(flooder.testKey);
    const stop = stalledNeighbour(base, flooder.testKey, stalledCards, Number(values["stalled-rate"]));
    await new Promise((r) => setTimeout(r, 4_000));
    return stop;
  };
  if (sampler) await listAllocations(flooder.testKey, seconds);
  await captures(base, captureKey, cards, rate, 3); // warm-up: connections, JIT, plans
  const pooled = {
    alone: { times: [] as number[], notApproved: 0 },
    flooded: { times: [] as number[], notApproved: 0 },
  };
  for (let round = 1; round <= Number(values.rounds); round++) {
    const aloneCpu = cpuPerSecond(groups);
    const m0 = await runtimeMetrics(base);
    const alone = await captures(base, captureKey, cards, rate, seconds);
    const aloneSummary = summary(alone.times, alone.notApproved);
    const m1 = await runtimeMetrics(base);
    console.log(
      JSON.stringify({
        round,
        phase: "captures alone",
        rate,
        ...aloneSummary,
        cpuMsPerS: aloneCpu(),
        runtime: delta(m0, m1),
      }),
    );
    const stopFlood = await neighbour();
    const floodedCpu = cpuPerSecond(groups);
    const m2 = await runtimeMetrics(base);
    const flooded = await captures(base, captureKey, cards, rate, seconds);
    const floodedSummary = summary(flooded.times, flooded.notApproved);
    const floodedCpuMsPerS = floodedCpu();
    const floodedRuntime = delta(m2, await runtimeMetrics(base));
    const flooding = await stopFlood();
    console.log(
      JSON.stringify({
        round,
        phase: besideLabel,
        rate,
        ...floodedSummary,
        cpuMsPerS: floodedCpuMsPerS,
        runtime: floodedRuntime,
      }),
    );
    const neighbourReport = stalled ? flooding : { floodRate: values["flood-rate"], ...flooding };
    console.log(JSON.stringify({ round, phase: stalled ? "the stalled business" : "the flooder", ...neighbourReport }));
    for (const [phase, run] of [
      ["alone", alone],
      ["flooded", flooded],
    ] as const) {
      pooled[phase].times.push(...run.times);
      pooled[phase].notApproved += run.notApproved;
    }
  }
  const alone = summary(pooled.alone.times, pooled.alone.notApproved);
  const flooded = summary(pooled.flooded.times, pooled.flooded.notApproved);
  console.log(JSON.stringify({ pooled: "captures alone", ...alone }));
  console.log(JSON.stringify({ pooled: besideLabel, ...flooded }));
  console.log(JSON.stringify({ p99Change: `${(((flooded.p99ms - alone.p99ms) / alone.p99ms) * 100).toFixed(0)} %` }));
} finally {
  await target.stop();
  receiver.close();
  stalledReceiver.closeAllConnections();
  stalledReceiver.close();
  await agent.close();
}
process.exit(0);
