import { pino } from "pino";
import { createMemoryBus, type IncomingMessage, type MemoryBus } from "@cardhold/bus";
import { TOPICS, type DecisionAnsweredMessage } from "@cardhold/contracts";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createMetrics, listen, newDataKey, type Listening, type Service } from "@cardhold/platform";
import { createService, type DispatcherOptions } from "../src/service";

export const INTERNAL = "internal-token-for-dispatcher-tests";

export interface DispatcherHarness {
  pg: TestDatabase;
  bus: MemoryBus;
  service: Service;
  http: Listening;
  /** Every decisions.v1 message the dispatcher published. */
  decisions: DecisionAnsweredMessage[];
  stop(): Promise<void>;
}

/** The dispatcher in-process on a fresh database and a memory bus, with short retries, recording its decisions. */
export async function startDispatcher(
  options: Partial<DispatcherOptions> = {},
  soleInstance = false,
): Promise<DispatcherHarness> {
  const logger = pino({ level: "silent" });
  const pg = await createTestDatabase();
  const bus = createMemoryBus({ logger, handledWaitMs: 2_000 });
  const service = await createService(
    { db: pg.db, bus, logger, metrics: createMetrics("dispatcher", false), internalToken: INTERNAL, soleInstance },
    { secretsKey: newDataKey(), retrySchedule: { delaysMs: [200, 400], windowMs: 2_500 }, claimMs: 5_000, ...options },
  );
  await service.start();
  const http = await listen(service.app, 0);
  const decisions: DecisionAnsweredMessage[] = [];
  await bus.subscribe({
    group: "test-decisions",
    topics: [TOPICS.decisions],
    handler: async (m: IncomingMessage) => void decisions.push(m.value as DecisionAnsweredMessage),
  });
  return {
    pg,
    bus,
    service,
    http,
    decisions,
    async stop() {
      await http.close();
      await service.stop();
      await bus.stop();
      await pg.stop();
    },
  };
}

/**
 * The dispatcher's database with nothing running: for tests that store and claim deliveries themselves. Each
 * webhook id given is stored enabled for business `bus.1` in test mode, at `http://127.0.0.1:9/<id>`, sealed key
 * `v1:sealed-<id>`.
 */
export async function startStoppedDispatcher(webhookIds: string[]): Promise<DispatcherHarness> {
  const h = await startDispatcher();
  await h.service.stop();
  await h.pg.db.query(
    `INSERT INTO dispatcher.webhooks (id, business_id, mode, url, events, status, is_default, updated_at, sealed_signing_key)
     SELECT id, 'bus.1', 'test', 'http://127.0.0.1:9/' || id, '["*"]', 'enabled', false, now(), 'v1:sealed-' || id
       FROM unnest($1::text[]) AS id`,
    [webhookIds],
  );
  return h;
}
