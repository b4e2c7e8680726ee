import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "../../support/build";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export const SERVICE_NAMES = [
  "customer-service",
  "webhook-registry",
  "event-dispatcher",
  "authorization-engine",
  "bill-service",
  "api-gateway",
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface RunningProcess {
  name: ServiceName;
  url: string;
  child: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Ports handed out below the kernel's ephemeral range (32768–60999 on Linux): a port the kernel picked for `listen(0)`
 * and was then closed can be taken as the source port of any outgoing connection (Kafka, PostgreSQL) before the
 * service binds it, which failed a scale-out start with EADDRINUSE. Ports here are never picked for outgoing ones.
 */
const PORT_RANGE = { from: 20_000, to: 32_000 };
const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A port nothing listens on yet, not given out before by this process. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${PORT_RANGE.from} and ${PORT_RANGE.to}`);
}

/**
 * Service processes still running, killed when this process exits: a bench or test that dies without stopping its
 * platform must not leave it running (orphaned services keep their consumer groups on the shared broker and take the
 * next run's messages, sealed with another run's keys).
 */
const aliveChildren = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of aliveChildren) child.kill("SIGKILL");
});

/** Starts one service as its own Node process (the distributed mode's main) and waits until /ready says ready. */
export async function startServiceProcess(
  name: ServiceName,
  env: Record<string, string>,
  port: number,
  waitForReady = true,
): Promise<RunningProcess> {
  // CPU_PROFILE_DIR: each service writes V8 CPU profiles (one per thread) into <dir>/<service> when it exits.
  const profile = process.env.CPU_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CPU_PROFILE_DIR}/${name}`]
    : [];
  // BENCH_NODE_ARGS: Node and V8 flags to try on every service process (as bench/support/all-in-one-process.ts does).
  const extra = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  await ensureBuilt();
  // As each service's `npm run start` runs it (package.json): --no-memory-reducer, see docs/operations/scaling.md.
  const nodeArgs = [...profile, ...extra, "--enable-source-maps", "--no-memory-reducer"];
  const child = spawn(process.execPath, [...nodeArgs, `services/${name}/dist/main.js`], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: env.LOG_LEVEL ?? "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  aliveChildren.add(child);
  child.once("exit", () => aliveChildren.delete(child));
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const running: RunningProcess = {
    name,
    url,
    child,
    output: () => output,
    kill: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
  if (waitForReady) await waitUntilReady(running);
  return running;
}

async function waitUntilReady(p: RunningProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) throw new Error(`${p.name} exited with ${p.child.exitCode}:\n${p.output()}`);
    try {
      const res = await fetch(`${p.url}/ready`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${p.name} not ready in time:\n${p.output()}`);
}

export interface Platform {
  gatewayUrl: string;
  operatorToken: string;
  env: Record<string, string>;
  ports: Record<ServiceName, number>;
  processes: Map<ServiceName, RunningProcess>;
  restart(name: ServiceName, extraEnv?: Record<string, string>, waitForReady?: boolean): Promise<RunningProcess>;
  stop(): Promise<void>;
}

/** The six services as separate processes against the given database and Kafka brokers. */
export async function startPlatform(
  databaseUrl: string,
  kafkaBrokers: string,
  extraEnv: Record<string, string> = {},
): Promise<Platform> {
  const ports = {} as Record<ServiceName, number>;
  for (const name of SERVICE_NAMES) ports[name] = await freePort();
  const operatorToken = randomBytes(16).toString("hex");
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: kafkaBrokers,
    INTERNAL_TOKEN: randomBytes(16).toString("hex"),
    CARD_DATA_KEY: randomBytes(32).toString("hex"),
    SECRETS_KEY: randomBytes(32).toString("hex"),
    OPERATOR_TOKEN: operatorToken,
    DB_POOL_SIZE: "4",
    CUSTOMER_SERVICE_URL: `http://127.0.0.1:${ports["customer-service"]}`,
    WEBHOOK_REGISTRY_URL: `http://127.0.0.1:${ports["webhook-registry"]}`,
    EVENT_DISPATCHER_URL: `http://127.0.0.1:${ports["event-dispatcher"]}`,
    AUTHORIZATION_ENGINE_URL: `http://127.0.0.1:${ports["authorization-engine"]}`,
    BILL_SERVICE_URL: `http://127.0.0.1:${ports["bill-service"]}`,
    ...extraEnv,
  };
  const processes = new Map<ServiceName, RunningProcess>();
  // Sequentially: concurrent first starts would race on creating the same Kafka topics and schemas.
  for (const name of SERVICE_NAMES) processes.set(name, await startServiceProcess(name, env, ports[name]));
  return {
    gatewayUrl: `http://127.0.0.1:${ports["api-gateway"]}`,
    operatorToken,
    env,
    ports,
    processes,
    async restart(name, extraEnv = {}, waitForReady = true) {
      await processes.get(name)?.kill("SIGTERM");
      const p = await startServiceProcess(name, { ...env, ...extraEnv }, ports[name], waitForReady);
      processes.set(name, p);
      return p;
    },
    async stop() {
      await Promise.all([...processes.values()].map((p) => p.kill("SIGTERM")));
    },
  };
}
