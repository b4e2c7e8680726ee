import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createService as createAuthorizationEngine } from "@cardhold/authorization-engine";
import { createService as createBillService } from "@cardhold/bill-service";
import { createService as createCustomerService } from "@cardhold/customer-service";
import { createService as createEventDispatcher } from "@cardhold/event-dispatcher";
import {
  createService as createGateway,
  type GatewayService,
  type RateLimits,
  type Upstream,
} from "@cardhold/api-gateway";
import { createService as createWebhookRegistry } from "@cardhold/webhook-registry";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import { createDb, startEmbeddedPostgres, type Db } from "@cardhold/db";
import {
  createLogger,
  createMetrics,
  listen,
  type Listening,
  type Service,
  type ServiceDeps,
  startTracing,
} from "@cardhold/platform";
import { ensureCardDataKey, ensureSecretsKey } from "./card-data-key";
import { lockDataDir } from "./data-dir";
import { ensureDefaultBusiness, type DefaultBusiness } from "./default-business";

/** See the engine's admission (load shedding): 500 ms here, 2000 ms for a separate engine process. */
const ALL_IN_ONE_MAX_QUEUED_MS = 500;

export interface AllInOneOptions {
  /** Where the embedded PostgreSQL keeps its files; a throwaway server when undefined (tests). */
  dataDir?: string;
  /** Use this PostgreSQL database instead of starting the embedded server (tests, benchmarks). */
  databaseUrl?: string;
  port?: number;
  host?: string;
  logLevel?: string;
  defaultWebhookUrl?: string;
  operatorToken?: string;
  /** The gateway's default limits per key and per business; none enforced when undefined (tests). */
  rateLimits?: RateLimits;
  /** When a write of a key with delayedRequests on is answered 202 (the gateway's default when undefined). */
  delayedRequestAfterMs?: number;
  /** Extra settings of the embedded PostgreSQL server. */
  postgresSettings?: Record<string, string | number>;
  /** Connections per service's pool (default 8). */
  poolSize?: number;
  /** Where every service's log lines go (default stdout); tests capture them. */
  logDestination?: Parameters<typeof createLogger>[2];
  /** The engine's ISO 8583 network interface (ISO8583_PORT, bound to `host`); off when undefined. */
  iso8583?: { port: number; timeoutMs?: number; retentionHours?: number };
}

export interface AllInOne {
  url: string;
  defaultBusiness: DefaultBusiness;
  gateway: GatewayService;
  /** The internal address of each service behind the gateway. */
  upstreams: Record<string, string>;
  /** A database connection for tests that look behind the API. */
  db: Db;
  /** The in-process bus, for tests and benchmarks that play another service's part. */
  bus: MemoryBus;
  /** Resolves when every bus message published so far was handled. */
  drained(): Promise<void>;
  /** Where the ISO 8583 network interface listens; undefined when it is off. */
  iso8583?: AddressInfo;
  stop(): Promise<void>;
}

/**
 * Every service in this process: a real PostgreSQL (embedded, from npm) with a pool per service as in the
 * distributed mode, the in-memory bus, the same createService code.
 */
export async function startAllInOne(opts: AllInOneOptions = {}): Promise<AllInOne> {
  const logLevel = opts.logLevel ?? "warn";
  const rootLogger = createLogger("cardhold", logLevel, opts.logDestination);
  const tracing = await startTracing("cardhold");
  const releaseDataDir = opts.dataDir ? lockDataDir(opts.dataDir) : () => undefined;
  const embedded = opts.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({
        dir: opts.dataDir && join(opts.dataDir, "pg"),
        settings: opts.postgresSettings,
      }).catch((error: unknown) => {
        releaseDataDir();
        throw error;
      });
  const databaseUrl = opts.databaseUrl ?? embedded!.url;
  if (embedded) await releaseRelayLeases(databaseUrl);
  const pools: Db[] = [];
  const poolFor = (name: string) => {
    const pool = createDb({ url: databaseUrl, poolSize: opts.poolSize ?? 8, applicationName: name });
    pools.push(pool);
    return pool;
  };
  const bus = createMemoryBus({ logger: rootLogger });
  const internalToken = randomBytes(24).toString("hex");
  const depsFor = (name: string): ServiceDeps => ({
    db: poolFor(name),
    bus,
    logger: createLogger(name, logLevel, opts.logDestination),
    metrics: createMetrics(name, false),
    internalToken,
    // Its own embedded server (private socket, data directory locked): no other process shares this database.
    soleInstance: embedded !== undefined,
  });

  const services: Service[] = [];
  const listening: Listening[] = [];
  /** The gateway hands requests to each service's app in this process; the internal port stays for tests. */
  const apps: Partial<Record<Upstream, Service["app"]>> = {};
  const serve = async (name: Upstream, service: Service) => {
    services.push(service);
    apps[name] = service.app;
    const http = await listen(service.app, 0);
    listening.push(http);
    return http.url;
  };

  const secretsKey = await ensureSecretsKey(opts.dataDir);
  const engine = await createAuthorizationEngine(depsFor("authorization-engine"), {
    cardDataKey: await ensureCardDataKey(opts.dataDir),
    // One event loop for every service: a request admitted late also waits longer for its answer than in the
    // distributed mode, so the excess is refused sooner (measured: bench/README.md, overload).
    admission: { maxQueuedMs: ALL_IN_ONE_MAX_QUEUED_MS },
    networkInterface: opts.iso8583 && { ...opts.iso8583, host: opts.host ?? "127.0.0.1" },
  });
  const upstreams = {
    "customer-service": await serve("customer-service", await createCustomerService(depsFor("customer-service"))),
    "webhook-registry": await serve(
      "webhook-registry",
      await createWebhookRegistry(depsFor("webhook-registry"), { secretsKey }),
    ),
    "event-dispatcher": await serve(
      "event-dispatcher",
      await createEventDispatcher(depsFor("event-dispatcher"), { secretsKey }),
    ),
    "authorization-engine": await serve("authorization-engine", engine),
    "bill-service": await serve("bill-service", await createBillService(depsFor("bill-service"))),
  };
  const gatewayDeps = { ...depsFor("api-gateway"), metrics: createMetrics("api-gateway") };
  const gateway = await createGateway({
    ...gatewayDeps,
    upstreams: apps as Record<Upstream, Service["app"]>,
    operatorToken: opts.operatorToken,
    secretsKey,
    rateLimits: opts.rateLimits,
    delayedRequestAfterMs: opts.delayedRequestAfterMs,
  });
  services.push(gateway);
  for (const service of services) await service.start();
  // Every consumer group has subscribed: from now on the bus drops what they all handled (memory-bus.ts).
  await bus.start();
  const front = await listen(gateway.app, opts.port ?? 8080, opts.host ?? "127.0.0.1");
  listening.push(front);

  const defaultBusiness = await ensureDefaultBusiness(gateway.businesses, {
    dataDir: opts.dataDir,
    webhookUrl: opts.defaultWebhookUrl ?? "http://127.0.0.1:4000/webhook",
  });

  return {
    url: front.url,
    defaultBusiness,
    gateway,
    upstreams,
    db: poolFor("tests"),
    bus,
    drained: () => bus.drained(),
    iso8583: engine.networkInterfaceAddress(),
    async stop() {
      for (const http of listening.reverse()) await http.close();
      for (const service of services.reverse()) await service.stop();
      // Let consumers finish what the relays published; the in-memory bus keeps nothing across a restart.
      await bus.drained(5_000).catch(() => rootLogger.warn("bus not drained before stop"));
      await bus.stop();
      for (const pool of pools) await pool.close();
      await embedded?.stop();
      await tracing?.stop();
      releaseDataDir();
    },
  };
}

/**
 * The outbox relays of a platform that was killed (SIGKILL, power cut) leave their leases behind, and a new relay
 * would wait for them to expire (5 s) before publishing anything: events, ledger commands and decisions stall after
 * every restart, long enough for a receiver's answer to miss its 4-second window. The DATA_DIR lock makes this the
 * only platform on the embedded database, so such leases belong to nobody: drop them before the services start.
 */
async function releaseRelayLeases(url: string) {
  const db = createDb({ url, poolSize: 1, applicationName: "cardhold" });
  try {
    const { rows } = await db.query<{ schema: string }>(
      "SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'outbox_relay_lease'",
    );
    for (const { schema } of rows) await db.query(`DELETE FROM "${schema}".outbox_relay_lease`);
  } finally {
    await db.close();
  }
}
