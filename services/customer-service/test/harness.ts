import { pino } from "pino";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import { TOPICS, type CustomerChangedMessage } from "@cardhold/contracts";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createMetrics, listen, newId, type Listening, type Service } from "@cardhold/platform";
import { callService, type Caller, type Reply } from "../../../test/support/internal-api";
import { createService } from "../src/service";

export const INTERNAL = "internal-token-for-customer-service-tests";
const logger = pino({ level: "silent" });

export interface Harness {
  pg: TestDatabase;
  bus: MemoryBus;
  http: Listening;
  /** Every customers.v1 message the service published. */
  published: CustomerChangedMessage[];
  stop(): Promise<void>;
}

/** The customer-service in-process: embedded Postgres, the memory bus, a recorder of customers.v1. */
export async function startHarness(): Promise<Harness> {
  const pg = await createTestDatabase();
  const bus = createMemoryBus({ logger, handledWaitMs: 2_000 });
  const published: CustomerChangedMessage[] = [];
  await bus.subscribe({
    group: "test-customers",
    topics: [TOPICS.customers],
    handler: async (m) => void published.push(m.value as CustomerChangedMessage),
  });
  await bus.start();
  const deps = {
    db: pg.db,
    bus,
    logger,
    metrics: createMetrics("customer-service", false),
    internalToken: INTERNAL,
  };
  const service: Service = await createService(deps);
  await service.start();
  const http = await listen(service.app, 0);
  return {
    pg,
    bus,
    http,
    published,
    async stop() {
      await http.close();
      await service.stop();
      await bus.stop();
      await pg.stop();
    },
  };
}

export type { Caller, Reply } from "../../../test/support/internal-api";

export const newBusiness = (): Caller => ({ businessId: newId("business"), mode: "test" });

/** Calls the service as the gateway does: internal token, business and mode headers. */
export const call = (h: Harness, as: Caller, method: string, path: string, body?: unknown): Promise<Reply> =>
  callService(h.http.url, INTERNAL, as, method, path, body);
