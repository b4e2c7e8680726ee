/**
 * ISO 8583 load: authorizations (0100 captures) over ONE persistent connection to the all-in-one's network interface
 * (`cardhold dev` as its own process with ISO8583_PORT set), open loop at a fixed rate, with a receiver that approves
 * at once. Reports the rate achieved, the latency the platform adds (answer time minus the receiver's own handling),
 * the response codes, answers later than the network's timeout, and CPU per authorization.
 *   npx tsx bench/iso8583.bench.ts --rate 250 --seconds 20 [--cards 50] [--timeout-ms 4000] [--warm-up-seconds 10]
 *                                  [--statements]
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Agent } from "undici";
import { freePort } from "../test/integration/support/service-processes";
import { connectIso8583, transactionMessage } from "../test/support/iso8583-client";
import { ledgerProblems } from "../test/support/ledger-invariants";
import { startBenchedAllInOne } from "./support/all-in-one-process";
import { benchApi, fundedActiveCards } from "./support/bench-api";
import { cpuPerOperation, readCpu, type ProcessGroups } from "./support/process-cpu";
import { statementStats } from "./support/statement-stats";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "250" },
    seconds: { type: "string", default: "20" },
    cards: { type: "string", default: "50" },
    "timeout-ms": { type: "string", default: "4000" },
    /** Seconds at the full rate before the measured run, so a cold platform's start is not measured. */
    "warm-up-seconds": { type: "string", default: "0" },
    /** Also report statements per authorization (pg_stat_statements on the embedded server). */
    statements: { type: "boolean", default: false },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const timeoutMs = Number(values["timeout-ms"]);

/** The receiver approves every decision at once; its own time per request, by the network's STAN and RRN. */
const receiverTime = new Map<string, number>();
const receiver = createServer((req, res) => {
  const started = performance.now();
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const event = JSON.parse(Buffer.concat(chunks).toString()) as {
      event: string;
      data: { networkData?: { stan?: string; rrn?: string } };
    };
    const asked = event.event === "card.authorization.request";
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(asked ? '{"action":"approve"}' : '{"code":"success"}');
    const { stan, rrn } = event.data.networkData ?? {};
    if (asked) receiverTime.set(`${stan}|${rrn}`, performance.now() - started);
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const address = receiver.address();
const receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

const isoPort = await freePort();
const platform = await startBenchedAllInOne({
  LOG_LEVEL: "error",
  DEFAULT_WEBHOOK_URL: receiverUrl,
  ISO8583_PORT: String(isoPort),
  ISO8583_TIMEOUT_MS: String(timeoutMs),
  ...(values.statements && {
    POSTGRES_SETTINGS: JSON.stringify({ shared_preload_libraries: "pg_stat_statements" }),
  }),
});
const statements = values.statements ? await statementStats(platform.databaseUrl()) : undefined;
const cpuGroups: ProcessGroups = { "all-in-one": () => [platform.child.pid!], postgres: platform.postgresPids };
const agent = new Agent({ connections: 16 });
const api = benchApi(platform.url, platform.testKey, agent);
const cardIds = await fundedActiveCards(api, Number(values.cards), "iso8583");
const pans: string[] = [];
for (const id of cardIds) pans.push((await api.api("GET", `/cards/${id}/secrets`)).pan as string);
const network = await connectIso8583(isoPort);

async function run(atRate: number, forSeconds: number) {
  const total = Math.round(atRate * forSeconds);
  await statements?.reset();
  const cpuBefore = readCpu(cpuGroups);
  const added: number[] = [];
  const codes = new Map<string, number>();
  let late = 0;
  let unanswered = 0;
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / atRate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const message = transactionMessage("0100", { pan: pans[i % pans.length]!, amount: 100 });
    const t0 = performance.now();
    sends.push(
      network.request(message, timeoutMs + 5_000).then(
        (answer) => {
          const took = performance.now() - t0;
          const code = String(answer.fields[39]);
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (took > timeoutMs) late++;
          const key = `${String(message.fields[11])}|${String(message.fields[37])}`;
          if (code === "00") added.push(took - (receiverTime.get(key) ?? 0));
        },
        () => void unanswered++,
      ),
    );
  }
  await Promise.all(sends);
  const elapsed = (performance.now() - started) / 1000;
  const sorted = added.sort((a, b) => a - b);
  return {
    offeredPerSecond: atRate,
    requests: total,
    approved: added.length,
    achievedPerSecond: Math.round(added.length / elapsed),
    addedLatencyP50ms: Number(percentile(sorted, 0.5).toFixed(1)),
    addedLatencyP99ms: Number(percentile(sorted, 0.99).toFixed(1)),
    maxMs: Number((sorted.at(-1) ?? NaN).toFixed(1)),
    responseCodes: Object.fromEntries(codes),
    answeredAfterNetworkTimeout: late,
    unanswered,
    cpuMsPerAuthorization: cpuPerOperation(cpuBefore, readCpu(cpuGroups), Math.max(1, added.length)),
    ...(statements && { statements: await statements.report(Math.max(1, added.length)) }),
  };
}

await run(Math.min(20, rate), 2); // warm-up: JIT, plans, pools
const warmUp = Number(values["warm-up-seconds"]);
if (warmUp > 0) console.log(JSON.stringify({ warmUp: await run(rate, warmUp) }));
console.log(JSON.stringify({ mode: "all-in-one", connection: "one", ...(await run(rate, seconds)) }));

const { default: pg } = await import("pg");
const db = new pg.Client({ connectionString: platform.databaseUrl() });
await db.connect();
console.log(JSON.stringify({ ledgerAudit: { problems: await ledgerProblems((text) => db.query(text)) } }));
await db.end();
await statements?.close();
await network.close();
await platform.stop();
receiver.close();
await agent.close();
process.exit(0);
