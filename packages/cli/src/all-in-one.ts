import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createService as createAuthorizationEngine } from "@cardhold/authorization-engine";
import { createService as createBillService } from "@cardhold/bill-service";
import { createService as createCustomerService } from "@cardhold/customer-service";
import { createService as createEventDispatcher } from "@cardhold/event-dispatcher";
import { createService as createGateway, type GatewayService } from "@cardhold/api-gateway";
import { createService as createWebhookRegistry } from "@cardhold/webhook-registry";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import { startEmbeddedPostgres, type Db } from "@cardhold/db";
import {
  createLogger,
  createMetrics,
  listen,
  type Listening,
  type Service,
  type ServiceDeps,
} from "@cardhold/platform";
import { ensureCardDataKey } from "./card-data-key";
import { ensureDefaultBusiness, type DefaultBusiness } from "./default-business";

export interface AllInOneOptions {
  /** Where the embedded Postgres keeps its files; in memory when undefined (tests). */
  dataDir?: string;
  port?: number;
  host?: string;
  logLevel?: string;
  defaultWebhookUrl?: string;
  operatorToken?: string;
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
  stop(): Promise<void>;
}

/** Every service in this process: embedded Postgres, the in-memory bus, the same createService code. */
export async function startAllInOne(opts: AllInOneOptions = {}): Promise<AllInOne> {
  const logLevel = opts.logLevel ?? "warn";
  const rootLogger = createLogger("cardhold", logLevel);
  const pg = await startEmbeddedPostgres({ dataDir: opts.dataDir && join(opts.dataDir, "postgres") });
  const bus = createMemoryBus({ logger: rootLogger });
  await bus.start();
  const internalToken = randomBytes(24).toString("hex");
  // Every service shares the embedded database's single connection (see EmbeddedPostgres.db).
  const depsFor = (name: string): ServiceDeps => ({
    db: pg.db,
    bus,
    logger: createLogger(name, logLevel),
    metrics: createMetrics(name, false),
    internalToken,
  });

  const services: Service[] = [];
  const listening: Listening[] = [];
  const serve = async (service: Service) => {
    services.push(service);
    const http = await listen(service.app, 0);
    listening.push(http);
    return http.url;
  };

  const upstreams = {
    "customer-service": await serve(await createCustomerService(depsFor("customer-service"))),
    "webhook-registry": await serve(await createWebhookRegistry(depsFor("webhook-registry"))),
    "event-dispatcher": await serve(await createEventDispatcher(depsFor("event-dispatcher"))),
    "authorization-engine": await serve(
      await createAuthorizationEngine(depsFor("authorization-engine"), { cardDataKey: await ensureCardDataKey(opts.dataDir) }),
    ),
    "bill-service": await serve(await createBillService(depsFor("bill-service"))),
  };
  const gatewayDeps = { ...depsFor("api-gateway"), metrics: createMetrics("api-gateway") };
  const gateway = await createGateway({ ...gatewayDeps, upstreams, operatorToken: opts.operatorToken });
  services.push(gateway);
  for (const service of services) await service.start();
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
    db: pg.db,
    bus,
    drained: () => bus.drained(),
    async stop() {
      for (const http of listening.reverse()) await http.close();
      for (const service of services.reverse()) await service.stop();
      // Let consumers finish what the relays published; the in-memory bus keeps nothing across a restart.
      await bus.drained(5_000).catch(() => rootLogger.warn("bus not drained before stop"));
      await bus.stop();
      await pg.stop();
    },
  };
}
