import { pino } from "pino";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import { TOPICS, type EventPublishedMessage } from "@cardhold/contracts";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createMetrics, listen, type Listening, type Service } from "@cardhold/platform";
import { callService, customerCreated, type Caller, type Reply } from "../../../test/support/internal-api";
import type { Biller } from "../src/billers/biller";
import { createSandboxBiller } from "../src/billers/sandbox-biller";
import type { BankRail } from "../src/payouts/bank-rail";
import { createSandboxRail } from "../src/payouts/sandbox-rail";
import { createService, type BillServiceOptions } from "../src/service";
import { FakeLedger } from "./fake-ledger";

export const INTERNAL = "internal-token-for-bill-service-tests";

/** Short timings so every path (timeouts, pending orders, resends) runs in a few seconds. */
export const TEST_OPTIONS: BillServiceOptions = {
  billerTimeoutMs: 300,
  paymentWaitMs: 2_000,
  customerWaitMs: 600,
  billerRecheckMs: [200],
  ledgerResendMs: [1_500],
  workerIdleMs: 100,
};
export const SANDBOX = { pendingMs: 3_000, slowMs: 800 };

/** The sandbox biller, counting each call by payment reference. */
export class CountingBiller implements Biller {
  readonly pays = new Map<string, number>();
  readonly queries = new Map<string, number>();
  constructor(private readonly inner: Biller) {}
  lookup: Biller["lookup"] = (product, accountNumber, signal) => this.inner.lookup(product, accountNumber, signal);
  pay: Biller["pay"] = (order, signal) => {
    this.pays.set(order.reference, (this.pays.get(order.reference) ?? 0) + 1);
    return this.inner.pay(order, signal);
  };
  query: Biller["query"] = (reference, signal) => {
    this.queries.set(reference, (this.queries.get(reference) ?? 0) + 1);
    return this.inner.query(reference, signal);
  };
}

/** The sandbox bank rail, counting each call by payout id. */
export class CountingRail implements BankRail {
  readonly name = "sandbox";
  readonly sends = new Map<string, number>();
  readonly queries = new Map<string, number>();
  constructor(private readonly inner: BankRail) {}
  send: BankRail["send"] = (order, signal) => {
    this.sends.set(order.reference, (this.sends.get(order.reference) ?? 0) + 1);
    return this.inner.send(order, signal);
  };
  query: BankRail["query"] = (reference, signal) => {
    this.queries.set(reference, (this.queries.get(reference) ?? 0) + 1);
    return this.inner.query(reference, signal);
  };
}

export interface Harness {
  pg: TestDatabase;
  bus: MemoryBus;
  ledger: FakeLedger;
  biller: CountingBiller;
  rail: CountingRail;
  service: Service;
  http: Listening;
  /** Every events.v1 message, across restarts. */
  events: EventPublishedMessage[];
  /** Stops the service and its bus (as a crash would lose the in-memory bus) and starts a new one on the database. */
  restart(before?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

const logger = pino({ level: "silent" });

/** The bill-service in-process: embedded Postgres, the memory bus, the fake ledger, the sandbox biller. */
export async function startHarness(overrides: Partial<BillServiceOptions> = {}): Promise<Harness> {
  const pg = await createTestDatabase();
  const biller = new CountingBiller(createSandboxBiller(pg.db, SANDBOX));
  const rail = new CountingRail(createSandboxRail(pg.db, SANDBOX));
  const ledger = new FakeLedger();
  const events: EventPublishedMessage[] = [];

  const boot = async () => {
    const bus = createMemoryBus({ logger, handledWaitMs: 2_000 });
    await bus.start();
    const deps = { db: pg.db, bus, logger, metrics: createMetrics("bill-service", false), internalToken: INTERNAL };
    const service = await createService(deps, { ...TEST_OPTIONS, ...overrides, biller, bankRail: rail });
    await service.start();
    await ledger.attach(bus);
    await bus.subscribe({
      group: "test-events",
      topics: [TOPICS.events],
      handler: async (m) => void events.push(m.value as EventPublishedMessage),
    });
    return { bus, service, http: await listen(service.app, 0) };
  };

  let running = await boot();
  const shutdown = async () => {
    await running.http.close();
    await running.service.stop();
    await running.bus.stop();
  };
  return {
    pg,
    ledger,
    biller,
    rail,
    events,
    get bus() {
      return running.bus;
    },
    get service() {
      return running.service;
    },
    get http() {
      return running.http;
    },
    async restart(before) {
      await running.http.close();
      await running.service.stop();
      await before?.();
      await running.bus.stop();
      running = await boot();
    },
    async stop() {
      await shutdown();
      await pg.stop();
    },
  };
}

export type { Caller, Reply } from "../../../test/support/internal-api";

/** Calls the service as the gateway does: internal token, business and mode headers. */
export const call = (h: Harness, as: Caller, method: string, path: string, body?: unknown): Promise<Reply> =>
  callService(h.http.url, INTERNAL, as, method, path, body);

/** Announces a customer on customers.v1, as the customer-service does; resolves once the projection has it. */
export async function announceCustomer(h: Harness, as: Caller, name = "Ciroma Adekunle"): Promise<string> {
  const message = customerCreated(as, name);
  await h.bus.publish([message]);
  return message.key;
}

/** events.v1 messages about one payment. */
export const eventsFor = (h: Harness, paymentId: string) => h.events.filter((e) => e.data.resourceId === paymentId);
