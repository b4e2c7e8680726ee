/**
 * The floor under the capture flow: the same hops as one authorization — HTTP in, one transaction, a message out,
 * HTTP to the receiver, a message back, one transaction, the HTTP answer — with no business logic, so the
 * platform's CPU per authorization can be read against what the hops alone cost on the same machine.
 *   all-in-one floor:  npx tsx bench/floor.bench.ts --mode all-in-one --rate 40 --seconds 15
 *   distributed floor: KAFKA_BROKERS=127.0.0.1:9092 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *                      npx tsx bench/floor.bench.ts --mode distributed --rate 40 --seconds 15
 * The floor server runs as its own process (`--role floor`) so its CPU is read apart from the load generator and the
 * receiver; all-in-one it hands messages over in-process on an embedded PostgreSQL with durable commits, distributed
 * over Kafka (acks=all, idempotent producer) and the machine's PostgreSQL.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Kafka, logLevel } from "kafkajs";
import { Agent, request } from "undici";
import { createDb, privateDirectory, startEmbeddedPostgres, type Db } from "@cardhold/db";
import { freePort } from "../test/integration/support/service-processes";
import { cpuPerOperation, pidFromFile, processTree, readCpu, type ProcessGroups } from "./support/process-cpu";

const { values } = parseArgs({
  options: {
    role: { type: "string", default: "load" },
    mode: { type: "string", default: "all-in-one" },
    rate: { type: "string", default: "40" },
    seconds: { type: "string", default: "15" },
    port: { type: "string" },
    receiver: { type: "string" },
    database: { type: "string" },
  },
});

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString()));
  });

/** A hop between the two halves: in-process, or a Kafka topic each way. */
interface Hop {
  send(topic: "requests" | "answers", id: string, body: string): Promise<void>;
  onMessage(topic: "requests" | "answers", handle: (id: string, body: string) => Promise<void>): Promise<void>;
}

function inProcessHop(): Hop {
  const handlers = new Map<string, (id: string, body: string) => Promise<void>>();
  return {
    send: async (topic, id, body) => void setImmediate(() => void handlers.get(topic)!(id, body)),
    onMessage: async (topic, handle) => void handlers.set(topic, handle),
  };
}

async function kafkaHop(brokers: string): Promise<Hop> {
  const kafka = new Kafka({ clientId: "floor", brokers: [brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topics = ["floor.requests", "floor.answers"];
  await admin.createTopics({ waitForLeaders: true, topics: topics.map((topic) => ({ topic, numPartitions: 3 })) });
  await admin.disconnect();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  return {
    async send(topic, id, body) {
      await producer.send({ topic: `floor.${topic}`, acks: -1, messages: [{ key: id, value: body }] });
    },
    async onMessage(topic, handle) {
      const consumer = kafka.consumer({ groupId: `floor-${topic}-${process.pid}` });
      await consumer.connect();
      await consumer.subscribe({ topic: `floor.${topic}`, fromBeginning: false });
      await consumer.run({
        partitionsConsumedConcurrently: 3,
        autoCommitInterval: 500,
        eachMessage: ({ message }) => handle(message.key!.toString(), message.value!.toString()),
      });
    },
  };
}

/** The floor server: the hops of an authorization and nothing else. */
async function runFloor() {
  const db: Db = createDb({ url: values.database!, poolSize: 8 });
  await db.query(
    "CREATE TABLE IF NOT EXISTS floor_requests (id text PRIMARY KEY, status text NOT NULL, body text NOT NULL)",
  );
  const hop = values.mode === "distributed" ? await kafkaHop(process.env.KAFKA_BROKERS!) : inProcessHop();
  const agent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  const waiting = new Map<string, ServerResponse>();
  await hop.onMessage("requests", async (id, body) => {
    const answer = await request(values.receiver!, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
      dispatcher: agent,
    });
    await hop.send("answers", id, await answer.body.text());
  });
  await hop.onMessage("answers", async (id, body) => {
    await db.tx((tx) => tx.query("UPDATE floor_requests SET status = 'decided', body = $2 WHERE id = $1", [id, body]));
    const res = waiting.get(id);
    waiting.delete(id);
    res?.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  let next = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const id = `${process.pid}-${next++}`;
      await db.tx((tx) =>
        tx.query("INSERT INTO floor_requests (id, status, body) VALUES ($1, 'pending', $2)", [id, body]),
      );
      waiting.set(id, res);
      await hop.send("requests", id, body);
    })();
  });
  server.listen(Number(values.port), "127.0.0.1", () => process.send?.("ready"));
}

/** The load generator and the receiver: open-loop POSTs at the rate, CPU read per process group over the run. */
async function runLoad() {
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  const receiver = createServer(
    (req, res) =>
      void readBody(req).then(() =>
        res.writeHead(200, { "content-type": "application/json" }).end('{"action":"approve"}'),
      ),
  );
  const receiverPort = await freePort();
  await new Promise<void>((resolve) => receiver.listen(receiverPort, "127.0.0.1", resolve));
  const scratch = mkdtempSync(join(tmpdir(), "cardhold-floor-"));
  privateDirectory(scratch);
  const embedded = values.mode === "all-in-one" ? await startEmbeddedPostgres({ dir: join(scratch, "pg") }) : undefined;
  const database = embedded?.url ?? process.env.DATABASE_URL!;
  const port = await freePort();
  const floor = fork(
    new URL(import.meta.url).pathname,
    [
      "--role",
      "floor",
      "--mode",
      values.mode,
      "--port",
      String(port),
      "--receiver",
      `http://127.0.0.1:${receiverPort}/`,
      "--database",
      database,
    ],
    { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  await new Promise((resolve) => floor.once("message", resolve));
  const postgres = () => {
    const pidFile = embedded
      ? join(scratch, "pg", "cluster", "postmaster.pid")
      : "/var/lib/postgresql/15/main/postmaster.pid";
    const postmaster = pidFromFile(pidFile);
    return postmaster ? processTree(postmaster) : [];
  };
  const groups: ProcessGroups = { floor: () => [floor.pid!], postgres };
  if (values.mode === "distributed")
    groups.kafka = () => [pidFromFile("infra/kafka/kafka.pid")].filter((p): p is number => p !== undefined);
  const agent = new Agent({ connections: 256 });
  const send = () =>
    request(`http://127.0.0.1:${port}/`, { method: "POST", body: '{"amount":100}', dispatcher: agent }).then((r) =>
      r.body.text(),
    );
  for (let i = 0; i < 50; i++) await send(); // warm-up: connections, JIT, plans
  const before = readCpu(groups);
  const latencies: number[] = [];
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    sends.push(send().then(() => void latencies.push(performance.now() - t0)));
  }
  await Promise.all(sends);
  const cpu = cpuPerOperation(before, readCpu(groups), latencies.length);
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    Number(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1));
  console.log(
    JSON.stringify({
      floor: values.mode,
      rate,
      requests: latencies.length,
      p50ms: at(0.5),
      p99ms: at(0.99),
      cpuMsPerRequest: cpu,
    }),
  );
  floor.kill("SIGKILL");
  receiver.close();
  await agent.close();
  await embedded?.stop();
  if (!embedded) await createDb({ url: database, poolSize: 1 }).query("DROP TABLE IF EXISTS floor_requests");
  rmSync(scratch, { recursive: true, force: true });
  process.exit(0);
}

await (values.role === "floor" ? runFloor() : runLoad());
