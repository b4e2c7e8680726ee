/**
 * Fairness (issue 21 item 2): does one business flooding lists at its limit move another business's captures?
 *   npx tsx bench/fairness.bench.ts [--rate 20] [--seconds 10] [--rounds 3] [--flood-connections 50] [--cards 5]
 * The all-in-one (`cardhold dev`, its own process, 127.0.0.1 only) with its default limits, unless RATE_LIMIT_* are
 * set in the environment. The default business (webhook: a receiver here that approves at once) captures at a fixed
 * rate, open loop, first alone, then while a second business lists customers: at `--flood-rate` a second (its
 * limit), or with `--flood-rate 0` over `--flood-connections` connections as fast as answers come back (429s
 * included: it never waits for Retry-After). The two phases alternate `--rounds` times (drift on a shared machine
 * falls on both alike); prints each round's p50/p99, both conditions' pooled p50/p99 and what the flooder was given.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Agent } from "undici";
import { createBusiness } from "../test/support/api-client";
import { startBenchedAllInOne } from "./support/all-in-one-process";
import { benchApi, fundedActiveCards } from "./support/bench-api";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "20" },
    seconds: { type: "string", default: "10" },
    "flood-connections": { type: "string", default: "50" },
    /** List requests a second, open loop (default 50: the per-key default limit); 0: as fast as answers come. */
    "flood-rate": { type: "string", default: "50" },
    cards: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
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

/** Lists customers over `connections` loops until `stop` resolves; answers by status. */
function flood(base: string, key: string, rate: number, connections: number) {
  const client = benchApi(base, key, agent);
  const counts: Record<number, number> = {};
  let stopped = false;
  const started = performance.now();
  const loop = async () => {
    while (!stopped) {
      const { status } = await client.call("GET", "/customers?limit=10").catch(() => ({ status: 0 }));
      counts[status] = (counts[status] ?? 0) + 1;
    }
  };
  const paced = async (rate: number) => {
    const sends: Promise<void>[] = [];
    for (let i = 0; !stopped; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sends.push(
        client
          .call("GET", "/customers?limit=10")
          .catch(() => ({ status: 0 }))
          .then(({ status }) => void (counts[status] = (counts[status] ?? 0) + 1)),
      );
    }
    await Promise.all(sends);
  };
  const loops = rate > 0 ? [paced(rate)] : Array.from({ length: connections }, loop);
  return async () => {
    stopped = true;
    await Promise.all(loops);
    const seconds = (performance.now() - started) / 1000;
    return {
      seconds: Number(seconds.toFixed(1)),
      byStatus: counts,
      admittedPerSecond: Math.round((counts[200] ?? 0) / seconds),
    };
  };
}

const platform = await startBenchedAllInOne({
  LOG_LEVEL: "error",
  OPERATOR_TOKEN: OPERATOR,
  DEFAULT_WEBHOOK_URL: `http://127.0.0.1:${port}/hook`,
});
try {
  const base = platform.url;
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  const cards = await fundedActiveCards(benchApi(base, platform.testKey, agent), Number(values.cards), "fair");
  const flooder = await createBusiness(base, OPERATOR, { name: "Flooder", webhookUrl: "http://127.0.0.1:9/hook" });
  await captures(base, platform.testKey, cards, rate, 3); // warm-up: connections, JIT, plans
  const pooled = {
    alone: { times: [] as number[], notApproved: 0 },
    flooded: { times: [] as number[], notApproved: 0 },
  };
  for (let round = 1; round <= Number(values.rounds); round++) {
    const alone = await captures(base, platform.testKey, cards, rate, seconds);
    console.log(JSON.stringify({ round, phase: "captures alone", rate, ...summary(alone.times, alone.notApproved) }));
    const stopFlood = flood(base, flooder.testKey, Number(values["flood-rate"]), Number(values["flood-connections"]));
    const flooded = await captures(base, platform.testKey, cards, rate, seconds);
    const flooding = await stopFlood();
    console.log(
      JSON.stringify({ round, phase: "captures while flooded", rate, ...summary(flooded.times, flooded.notApproved) }),
    );
    console.log(JSON.stringify({ round, phase: "the flooder", floodRate: values["flood-rate"], ...flooding }));
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
  console.log(JSON.stringify({ pooled: "captures while flooded", ...flooded }));
  console.log(JSON.stringify({ p99Change: `${(((flooded.p99ms - alone.p99ms) / alone.p99ms) * 100).toFixed(0)} %` }));
} finally {
  await platform.stop();
  receiver.close();
  await agent.close();
}
process.exit(0);
