import { startRoundRobinProxy, type RoundRobinProxy } from "../../chaos/round-robin-proxy";
import { sharedServiceEnv, stopInstances } from "./instances";
import {
  freePort,
  SERVICE_NAMES,
  startServiceProcess,
  type RunningProcess,
  type ServiceName,
} from "./service-processes";

/** One process of a service: `<service>-<n>`, on its own port. */
export interface ServiceInstance {
  id: string;
  name: ServiceName;
  port: number;
  url: string;
  process?: RunningProcess;
}

export interface ScaledPlatform {
  operatorToken: string;
  /** Each gateway instance's own address (the test plays the load balancer in front of them). */
  gatewayUrls: string[];
  instances: ServiceInstance[];
  instance(id: string): ServiceInstance;
  /** How long it took from spawning every process to the last one answering /ready. */
  startedInMs: number;
  /** Every instance's output (for a failed run's report). */
  output(): string;
  stop(): Promise<void>;
}

/** Many Node processes starting at once on a small machine take their time; a start slower than this fails. */
const READY_TIMEOUT_MS = 150_000;

/** Resolves once the instance answers /ready with 200; rejects with its output if it exits or the time runs out. */
async function readyWithin(instance: ServiceInstance, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const p = instance.process!;
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) throw new Error(`${instance.id} exited with ${p.child.exitCode}:\n${p.output()}`);
    const status = await fetch(`${instance.url}/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${instance.id} not ready within ${timeoutMs} ms:\n${p.output()}`);
}

/**
 * `count` instances of every service against one database and one Kafka, all spawned at the same moment (so their
 * migrations and topic creation race, as a rolling deploy's do). The services call each other through a round-robin
 * balancer per service (as behind a Kubernetes Service or an ALB), which passes over an instance that refuses
 * connections; the gateways are left unbalanced so the caller picks one per request.
 */
export async function startScaledPlatform(
  databaseUrl: string,
  kafkaBrokers: string,
  count: number,
  extraEnv: Record<string, string> = {},
): Promise<ScaledPlatform> {
  const instances: ServiceInstance[] = [];
  for (const name of SERVICE_NAMES) {
    for (let n = 1; n <= count; n++) {
      const port = await freePort();
      instances.push({ id: `${name}-${n}`, name, port, url: `http://127.0.0.1:${port}` });
    }
  }
  const balancers: RoundRobinProxy[] = [];
  const balanced = async (name: ServiceName) => {
    const proxy = await startRoundRobinProxy(instances.filter((i) => i.name === name).map((i) => i.url));
    balancers.push(proxy);
    return proxy.url;
  };
  const { env, operatorToken } = await sharedServiceEnv({
    databaseUrl,
    kafkaBrokers,
    poolSize: 4,
    urlOf: balanced,
    extraEnv,
  });
  const spawnedAt = Date.now();
  for (const i of instances) i.process = await startServiceProcess(i.name, env, i.port, false);
  const started = await Promise.allSettled(instances.map((i) => readyWithin(i, READY_TIMEOUT_MS)));
  const startedInMs = Date.now() - spawnedAt;
  const stop = () =>
    stopInstances(
      instances.flatMap((i) => (i.process ? [i.process] : [])),
      balancers,
    );
  const failed = started.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
  if (failed.length > 0) {
    await stop();
    throw new Error(`instances did not start:\n${failed.join("\n")}`);
  }
  return {
    operatorToken,
    gatewayUrls: instances.filter((i) => i.name === "api-gateway").map((i) => i.url),
    instances,
    instance(id) {
      const found = instances.find((i) => i.id === id);
      if (!found) throw new Error(`no instance ${id}`);
      return found;
    },
    startedInMs,
    output: () => instances.map((i) => `--- ${i.id} ---\n${i.process?.output() ?? ""}`).join("\n"),
    stop,
  };
}
