import { randomBytes } from "node:crypto";
import type { RoundRobinProxy } from "../../chaos/round-robin-proxy";
import type { RunningProcess, ServiceName } from "./service-processes";

/**
 * The settings every instance of every service shares (fresh secrets for the run), with each service the gateway
 * calls reached at `urlOf(service)`: one instance's address or a balancer in front of several.
 */
export async function sharedServiceEnv(opts: {
  databaseUrl: string;
  kafkaBrokers: string;
  poolSize: number;
  urlOf: (service: ServiceName) => Promise<string>;
  extraEnv?: Record<string, string>;
}): Promise<{ env: Record<string, string>; operatorToken: string }> {
  const operatorToken = randomBytes(16).toString("hex");
  const env: Record<string, string> = {
    DATABASE_URL: opts.databaseUrl,
    KAFKA_BROKERS: opts.kafkaBrokers,
    INTERNAL_TOKEN: randomBytes(16).toString("hex"),
    CARD_DATA_KEY: randomBytes(32).toString("hex"),
    SECRETS_KEY: randomBytes(32).toString("hex"),
    OPERATOR_TOKEN: operatorToken,
    DB_POOL_SIZE: String(opts.poolSize),
    CUSTOMER_SERVICE_URL: await opts.urlOf("customer-service"),
    WEBHOOK_REGISTRY_URL: await opts.urlOf("webhook-registry"),
    EVENT_DISPATCHER_URL: await opts.urlOf("event-dispatcher"),
    AUTHORIZATION_ENGINE_URL: await opts.urlOf("authorization-engine"),
    BILL_SERVICE_URL: await opts.urlOf("bill-service"),
    ...opts.extraEnv,
  };
  return { env, operatorToken };
}

/** SIGTERMs every process (SIGKILL after 15 s), then closes the balancers. */
export async function stopInstances(processes: RunningProcess[], balancers: RoundRobinProxy[]): Promise<void> {
  const stopOne = async (p: RunningProcess) => {
    const forced = setTimeout(() => void p.kill("SIGKILL"), 15_000);
    await p.kill("SIGTERM");
    clearTimeout(forced);
  };
  await Promise.all(processes.map(stopOne));
  await Promise.all(balancers.map((b) => b.close()));
}
