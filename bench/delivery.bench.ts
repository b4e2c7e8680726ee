/**
 * Event delivery benchmark: events delivered per second to a local receiver, and enqueue → delivered latency.
 *   all-in-one:  npx tsx bench/delivery.bench.ts --mode all-in-one --events 2000
 *   distributed: KAFKA_BROKERS=127.0.0.1:9092 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *                npx tsx bench/delivery.bench.ts --mode distributed --events 2000
 * Events are published on events.v1 as the engine would; the receiver answers 200 at once.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { TOPICS } from "@cardhold/contracts";
import pg from "pg";
import { startAllInOne } from "../apps/cli/src/all-in-one";
import { createScratchDatabase } from "../test/integration/support/scratch-database";
import { startPlatform } from "../test/integration/support/service-processes";
import { produce } from "../test/integration/support/topic-reader";
import { eventMessage } from "../test/support/event-message";

const { values } = parseArgs({ options: { mode: { type: "string", default: "all-in-one" }, events: { type: "string", default: "2000" } } });
const total = Number(values.events);
const published = new Map<string, number>();
const latencies: number[] = [];
let firstAt = 0;
let lastAt = 0;

const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const id = (JSON.parse(Buffer.concat(chunks).toString()) as { metadata: { event: string } }).metadata.event;
    const at = published.get(id);
    if (at !== undefined && latencies.length < total) {
      latencies.push(performance.now() - at);
      lastAt = performance.now();
      published.delete(id);
    }
    res.writeHead(200, { "content-type": "application/json" }).end('{"code":"success"}');
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const address = receiver.address();
const receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;

function makeEvents(businessId: string) {
  return Array.from({ length: total }, (_, i) => eventMessage(businessId, "card.transaction.created", { amount: -i }));
}

async function waitForAll(timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (latencies.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

function report(mode: string) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1);
  const seconds = (lastAt - firstAt) / 1000;
  console.log(JSON.stringify({ mode, events: total, delivered: latencies.length, seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round(latencies.length / seconds), p50ms: Number(pct(0.5)), p99ms: Number(pct(0.99)) }));
}

if (values.mode === "all-in-one") {
  const platform = await startAllInOne({ port: 0, logLevel: "error", defaultWebhookUrl: receiverUrl });
  const { businessId } = platform.defaultBusiness;
  while ((await platform.db.query("SELECT 1 FROM dispatcher.webhooks WHERE business_id = $1", [businessId])).rowCount === 0) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const events = makeEvents(businessId);
  firstAt = performance.now();
  for (const e of events) published.set(e.eventId, performance.now());
  await Promise.all(events.map((e) => platform.bus.publish([{ topic: TOPICS.events, key: e.key, value: e.value, id: e.id }])));
  await waitForAll();
  report("all-in-one");
  await platform.stop();
} else {
  const database = await createScratchDatabase(process.env.DATABASE_URL!);
  const platform = await startPlatform(database.url, process.env.KAFKA_BROKERS!, { DB_POOL_SIZE: "10", LOG_LEVEL: "error" });
  const res = await fetch(`${platform.gatewayUrl}/admin/businesses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-operator-token": platform.operatorToken },
    body: JSON.stringify({ name: "Bench", webhookUrl: receiverUrl }),
  });
  const businessId = ((await res.json()) as { data: { business: { id: string } } }).data.business.id;
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  while ((await db.query("SELECT 1 FROM dispatcher.webhooks WHERE business_id = $1", [businessId])).rowCount === 0) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const events = makeEvents(businessId);
  const progress = process.env.BENCH_PROGRESS
    ? setInterval(async () => {
        const { rows } = await db.query(
          "SELECT (SELECT count(*) FROM dispatcher.events) AS ingested, (SELECT count(*) FROM dispatcher.deliveries WHERE status = 'delivered') AS delivered",
        );
        console.error(JSON.stringify({ t: Math.round(performance.now() - firstAt), received: latencies.length, ...rows[0] }));
      }, 1_000)
    : undefined;
  firstAt = performance.now();
  for (let i = 0; i < events.length; i += 500) {
    const chunk = events.slice(i, i + 500);
    for (const e of chunk) published.set(e.eventId, performance.now());
    await produce(process.env.KAFKA_BROKERS!, TOPICS.events, chunk);
  }
  await waitForAll();
  clearInterval(progress);
  report("distributed");
  await db.end();
  await platform.stop();
  await database.drop();
}
receiver.close();
process.exit(0);
