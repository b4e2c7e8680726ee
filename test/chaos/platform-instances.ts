import {
  freePort,
  startServiceProcess,
  type RunningProcess,
  type ServiceName,
} from "../integration/support/service-processes";
import { sharedServiceEnv, stopInstances } from "../integration/support/instances";
import { startRoundRobinProxy, type RequestTrace, type RoundRobinProxy, type SlowExchange } from "./round-robin-proxy";

/** Two of each on the real-time path; one of the others (the chaos run kills every instance in turn all the same). */
const INSTANCES: Record<ServiceName, number> = {
  "customer-service": 1,
  "webhook-registry": 1,
  "event-dispatcher": 2,
  "authorization-engine": 2,
  "bill-service": 1,
  "api-gateway": 2,
};

interface Instance {
  id: string;
  name: ServiceName;
  port: number;
  process?: RunningProcess;
}

export interface ScaledPlatform {
  /** The gateways' load balancer: what the load generator calls. */
  gatewayUrl: string;
  operatorToken: string;
  instanceIds: string[];
  /** SIGKILLs the instance; resolves once it is gone. */
  kill(id: string): Promise<void>;
  /** Starts the instance again on its port; resolves once it answers /ready. */
  restart(id: string): Promise<void>;
  /** The running instances' pids, by service (for CPU readings). */
  pidsOf(service: ServiceName): number[];
  /** Each instance of the service by id, with its own address (not the balancer's). */
  instancesOf(service: ServiceName): Array<{ id: string; url: string }>;
  /** Requests the balancers saw an instance hold over 20 s, by the balanced service. */
  slowExchanges(): Array<SlowExchange & { service: ServiceName }>;
  /** What the gateways' balancer saw of a load request, by its tag. */
  gatewayTrace(tag: string): RequestTrace | undefined;
  /** Each instance's output so far, killed ones included (for a failed run's report). */
  outputs(): Array<{ id: string; text: string }>;
  stop(): Promise<void>;
}

/**
 * The distributed platform with several instances of a service behind a round-robin balancer each (the gateways
 * for the load generator, the engines and dispatchers for the gateways), against the given database and brokers.
 * Instances start one at a time; each is named `<service>-<n>`.
 */
export async function startScaledPlatform(
  databaseUrl: string,
  kafkaBrokers: string,
  extraEnv: Record<string, string>,
): Promise<ScaledPlatform> {
  const instances: Instance[] = [];
  for (const [name, count] of Object.entries(INSTANCES) as Array<[ServiceName, number]>) {
    for (let n = 1; n <= count; n++) instances.push({ id: `${name}-${n}`, name, port: await freePort() });
  }
  const urlsOf = (name: ServiceName) =>
    instances.filter((i) => i.name === name).map((i) => `http://127.0.0.1:${i.port}`);
  const balancers: RoundRobinProxy[] = [];
  const balancerOf = new Map<ServiceName, RoundRobinProxy>();
  const balanced = async (name: ServiceName) => {
    const urls = urlsOf(name);
    if (urls.length === 1) return urls[0]!;
    const proxy = await startRoundRobinProxy(urls);
    balancers.push(proxy);
    balancerOf.set(name, proxy);
    return proxy.url;
  };
  const { env, operatorToken } = await sharedServiceEnv({
    databaseUrl,
    kafkaBrokers,
    poolSize: 8,
    urlOf: balanced,
    extraEnv,
  });
  const gatewayUrl = await balanced("api-gateway");
  const killedOutputs: Array<{ id: string; text: string }> = [];
  const byId = (id: string) => {
    const instance = instances.find((i) => i.id === id);
    if (!instance) throw new Error(`no instance ${id}`);
    return instance;
  };
  for (const instance of instances) instance.process = await startServiceProcess(instance.name, env, instance.port);

  return {
    gatewayUrl,
    operatorToken,
    instanceIds: instances.map((i) => i.id),
    async kill(id) {
      const instance = byId(id);
      killedOutputs.push({ id: `${id} (killed)`, text: instance.process?.output() ?? "" });
      await instance.process?.kill("SIGKILL");
    },
    async restart(id) {
      const instance = byId(id);
      instance.process = await startServiceProcess(instance.name, env, instance.port);
    },
    pidsOf: (service) =>
      instances.flatMap((i) => (i.name === service && i.process?.child.pid ? [i.process.child.pid] : [])),
    instancesOf: (service) =>
      instances.filter((i) => i.name === service).map((i) => ({ id: i.id, url: `http://127.0.0.1:${i.port}` })),
    slowExchanges: () =>
      [...balancerOf].flatMap(([service, proxy]) => proxy.slowExchanges().map((e) => ({ ...e, service }))),
    gatewayTrace: (tag) => balancerOf.get("api-gateway")?.traceOf(tag),
    outputs: () => [...killedOutputs, ...instances.map((i) => ({ id: i.id, text: i.process?.output() ?? "" }))],
    stop: () =>
      stopInstances(
        instances.flatMap((i) => (i.process ? [i.process] : [])),
        balancers,
      ),
  };
}
