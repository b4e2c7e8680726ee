import type { z } from "zod";
import { createKafkaBus } from "@cardhold/bus";
import { ALL_TOPICS } from "@cardhold/contracts";
import { createDb } from "@cardhold/db";
import { baseConfigShape, exitOnConfigError, loadConfig } from "./config";
import { tuneGarbageCollector } from "./garbage-collection";
import { listen, onShutdown, type Service } from "./lifecycle";
import { installLastResortHandlers } from "./last-resort";
import { createLogger } from "./logger";
import { createMetrics } from "./metrics";
import { startTracing } from "./tracing";
import type { ServiceDeps } from "./service-kit";
import { z as zod } from "zod";

export interface ServiceProcessOptions<S extends z.ZodRawShape> {
  name: string;
  defaultPort: number;
  /** Settings of this service beyond the shared ones. */
  configShape?: S;
  /** `config` holds the shared settings, the process's own (HOST, PORT, Kafka's) and this service's. */
  create(deps: ServiceDeps, config: ServiceProcessConfig<S>): Promise<Service>;
  /** Addresses beside the service's own to name in its "listening" line (the gateway's console), by its URL. */
  links?(url: string): Record<string, string>;
}

const processShape = {
  HOST: zod.string().default("127.0.0.1"),
  PORT: zod.coerce.number().int().min(0).max(65535),
  KAFKA_PARTITIONS: zod.coerce.number().int().min(1).max(64).default(3),
  /** How long a crashed instance holds its partitions (docs/operations/scaling.md); the broker must allow it. */
  KAFKA_SESSION_TIMEOUT_MS: zod.coerce.number().int().min(1_000).max(300_000).default(6_000),
};

type ProcessConfig = z.infer<z.ZodObject<typeof baseConfigShape & typeof processShape>>;
export type ServiceProcessConfig<S extends z.ZodRawShape> = ProcessConfig & z.infer<z.ZodObject<S>>;

/** The distributed mode's main: one service in this process, against Kafka and PostgreSQL. */
export async function runServiceProcess<S extends z.ZodRawShape>(opts: ServiceProcessOptions<S>): Promise<void> {
  tuneGarbageCollector();
  const shape = {
    ...baseConfigShape,
    ...processShape,
    PORT: processShape.PORT.default(opts.defaultPort),
    ...(opts.configShape ?? ({} as S)),
  };
  const config = exitOnConfigError(() => loadConfig(shape)) as ServiceProcessConfig<S>;
  const logger = createLogger(opts.name, config.LOG_LEVEL);
  installLastResortHandlers(logger);
  const tracing = await startTracing(opts.name);
  // Instances of a service share its outbox: each commit wakes the relay holding the lease (no tight poll).
  const db = createDb({
    url: config.DATABASE_URL,
    poolSize: config.DB_POOL_SIZE,
    applicationName: opts.name,
    notifyOutbox: true,
  });
  const bus = createKafkaBus({
    brokers: config.KAFKA_BROKERS.split(",").map((b) => b.trim()),
    clientId: opts.name,
    logger,
    topics: ALL_TOPICS,
    partitions: config.KAFKA_PARTITIONS,
    sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
  });
  const deps: ServiceDeps = {
    db,
    bus,
    logger,
    metrics: createMetrics(opts.name),
    internalToken: config.INTERNAL_TOKEN,
    bodyLimit: config.BODY_LIMIT,
  };
  try {
    await bus.start();
    const service = await opts.create(deps, config);
    await service.start();
    const http = await listen(service.app, config.PORT, config.HOST);
    logger.info({ url: http.url, ...opts.links?.(http.url) }, `${opts.name} listening`);
    onShutdown(logger, [http.close, service.stop, bus.stop, db.close, async () => tracing?.stop()]);
  } catch (err) {
    logger.fatal({ err }, `${opts.name} failed to start`);
    await bus.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    process.exit(1);
  }
}
