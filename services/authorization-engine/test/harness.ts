import { pino, type Logger } from "pino";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import {
  TOPICS,
  type DecisionAnsweredMessage,
  type EventPublishedMessage,
  type LedgerResultMessage,
  type Mode,
  type WebhookChangedMessage,
} from "@cardhold/contracts";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createMetrics, listen, newId, type Listening } from "@cardhold/platform";
import { callService, customerCreated, type Caller, type Reply } from "../../../test/support/internal-api";
import { createService, newCardDataKey, type EngineOptions, type EngineService } from "../src/service";

export const INTERNAL = "internal-token-for-engine-tests";
const logger = pino({ level: "silent" });

export type { Reply } from "../../../test/support/internal-api";

export type Envelope = EventPublishedMessage["data"]["envelope"];

/**
 * The engine in-process (embedded Postgres, memory bus) with the test playing the other services: it announces
 * customers and webhooks on the bus, records every events.v1 envelope, and answers decision events on decisions.v1
 * as the dispatcher would.
 */
export interface EngineHarness {
  readonly bus: MemoryBus;
  pg: TestDatabase;
  events: Envelope[];
  /** The webhook each event was addressed to (a program's own), by event id. */
  routedTo: Map<string, string | undefined>;
  /** The deadline each decision event carried (events.v1 answerBy), by event id. */
  answerBy: Map<string, string | undefined>;
  /** The way back each decision event carried (events.v1 answerTo), by event id. */
  answerTo: Map<string, string | undefined>;
  ledgerResults: LedgerResultMessage["data"][];
  url: string;
  /** The ISO 8583 network interface's port (when started with `networkInterface`). */
  iso8583Port(): number | undefined;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEngine(
  opts: Pick<EngineOptions, "sweeperGraceMs" | "admission" | "networkInterface" | "answerTo" | "eventsTo"> & {
    now?: () => number;
    /** The engine's logger (silent by default): a test reads what it logs. */
    logger?: Logger;
  } = {},
): Promise<EngineHarness> {
  const pg = await createTestDatabase();
  const cardDataKey = newCardDataKey();
  const events: Envelope[] = [];
  const routedTo = new Map<string, string | undefined>();
  const answerBy = new Map<string, string | undefined>();
  const answerTo = new Map<string, string | undefined>();
  const ledgerResults: LedgerResultMessage["data"][] = [];

  /** A memory bus with the test's recorders, and an engine on it. */
  const boot = async () => {
    const bus = createMemoryBus({ logger, handledWaitMs: 2_000 });
    await bus.start();
    await bus.subscribe({
      group: "test-events",
      topics: [TOPICS.events],
      handler: async (m) => {
        const { envelope, webhookId, answerBy: due, answerTo: back } = (m.value as EventPublishedMessage).data;
        events.push(envelope);
        routedTo.set(envelope.metadata.event, webhookId);
        answerBy.set(envelope.metadata.event, due);
        answerTo.set(envelope.metadata.event, back);
      },
    });
    await bus.subscribe({
      group: "test-ledger",
      topics: [TOPICS.ledgerResults],
      handler: async (m) => void ledgerResults.push((m.value as LedgerResultMessage).data),
    });
    const deps = {
      db: pg.db,
      bus,
      logger: opts.logger ?? logger,
      metrics: createMetrics("authorization-engine", false),
      internalToken: INTERNAL,
      now: opts.now,
    };
    const service = await createService(deps, {
      cardDataKey,
      sweeperGraceMs: opts.sweeperGraceMs ?? 0,
      admission: opts.admission,
      networkInterface: opts.networkInterface,
      answerTo: opts.answerTo,
      eventsTo: opts.eventsTo,
    });
    await service.start();
    const http = await listen(service.app, 0);
    return { bus, service, http };
  };
  let running: { bus: MemoryBus; service: EngineService; http: Listening } = await boot();
  const shutdown = async () => {
    await running.http.close();
    await running.service.stop();
    await running.bus.stop();
  };

  const harness: EngineHarness = {
    pg,
    events,
    routedTo,
    answerBy,
    answerTo,
    ledgerResults,
    get bus() {
      return running.bus;
    },
    url: running.http.url,
    iso8583Port: () => running.service.networkInterfaceAddress()?.port,
    /** The engine stopped and a new one started on the same database (the in-memory bus does not outlive it). */
    async restart() {
      await shutdown();
      running = await boot();
      harness.url = running.http.url;
    },
    async stop() {
      await shutdown();
      await pg.stop();
    },
  };
  return harness;
}

export type Business = Caller;

export const newBusiness = (mode: Mode = "test"): Business => ({ businessId: newId("business"), mode });

/** Calls the engine as the gateway does: internal token, business and mode headers. */
export const call = (
  h: EngineHarness,
  as: Business,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<Reply> => callService(h.url, INTERNAL, as, method, path, body, headers);

/** customers.v1 as the customer-service announces a new customer; returns its id. */
export async function announceCustomer(h: EngineHarness, as: Business, name = "Ada Obi"): Promise<string> {
  const message = customerCreated(as, name);
  await h.bus.publish([message]);
  return message.key;
}

/** webhooks.v1 as the registry announces a webhook (for its timeoutDefault). */
export async function announceWebhook(
  h: EngineHarness,
  as: Business,
  w: Partial<WebhookChangedMessage["data"]> = {},
): Promise<string> {
  const id = w.id ?? newId("webhook");
  const value: WebhookChangedMessage = {
    type: "webhook.changed",
    businessId: as.businessId,
    mode: as.mode,
    occurredAt: new Date().toISOString(),
    data: {
      id,
      url: "http://127.0.0.1:9/hook",
      events: [],
      signingKey: "k".repeat(32),
      status: "enabled",
      isDefault: true,
      timeoutDefault: null,
      ...w,
    },
  };
  await h.bus.publish([{ topic: TOPICS.webhooks, key: id, value, id: newId("message") }]);
  return id;
}

/** The events of one resource so far, in order. */
export const eventsOf = (h: EngineHarness, resourceId: string) =>
  h.events.filter(
    (e) =>
      (e.data as { id?: string; authorization?: string }).id === resourceId ||
      (e.data as { authorization?: string }).authorization === resourceId,
  );

type DecisionAnswer = { httpStatus?: number; body?: unknown; error?: DecisionAnsweredMessage["data"]["error"] };

/** decisions.v1 as the dispatcher publishes it: the receiver's HTTP answer, or an error instead. */
export async function answerDecision(h: EngineHarness, as: Business, event: Envelope, answer: DecisionAnswer) {
  const value = decisionAnswered(as, event, answer);
  await h.bus.publish([{ topic: TOPICS.decisions, key: value.data.resourceId, value, id: newId("message") }]);
}

/** The decisions.v1 message the dispatcher makes of a receiver's answer to `event`. */
export function decisionAnswered(as: Business, event: Envelope, answer: DecisionAnswer): DecisionAnsweredMessage {
  return {
    type: "decision.answered",
    businessId: as.businessId,
    mode: as.mode,
    occurredAt: new Date().toISOString(),
    data: {
      eventId: event.metadata.event,
      resourceId: (event.data as { id: string }).id,
      webhookId: null,
      httpStatus: answer.error ? null : (answer.httpStatus ?? 200),
      body: answer.body ?? null,
      latencyMs: 5,
      error: answer.error ?? null,
    },
  };
}

/** A capture the network sends for the card: its reply (once decided), and the decision event it raised. */
export async function captureAsked(h: EngineHarness, as: Business, cardId: string, amount = 1_000) {
  const reply = call(h, as, "POST", `/simulation/cards/${cardId}/request-authorization/capture`, {
    amount,
    channel: "online",
  });
  const question = await nextEvent(
    h,
    new Set(),
    (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === cardId,
  );
  return { reply, question };
}

/** Waits for the next event matching `match` that `seen` does not hold yet, and marks it seen. */
export async function nextEvent(
  h: EngineHarness,
  seen: Set<string>,
  match: (e: Envelope) => boolean,
  timeoutMs = 10_000,
): Promise<Envelope> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = h.events.find((e) => !seen.has(e.metadata.event) && match(e));
    if (found) {
      seen.add(found.metadata.event);
      return found;
    }
    if (Date.now() > deadline)
      throw new Error(`no matching event within ${timeoutMs} ms; events: ${h.events.map((e) => e.event).join(", ")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface IssuedCard {
  cardId: string;
  programId: string;
  customerId: string;
  fundingAccount: string;
  settlementAccount: string;
}

export interface CardSetup {
  fundingSourceType?: "card-account" | "settlement-account";
  timeoutDefault?: "approve" | "decline";
  /** The program's authorization.standIn (stand-in rules). */
  standIn?: Record<string, unknown>;
  /** The program's own webhook (authorization.webhook): its events go there, its timeoutDefault and standIn apply. */
  webhook?: string;
  transactionFee?: number;
  /** Paid into the settlement account; for card-account programs also moved onto the card. */
  funds?: number;
  controls?: Record<string, unknown>;
  activate?: boolean;
}

/** A customer, a live virtual program, a funded and (by default) activated card. */
export async function issueCard(h: EngineHarness, as: Business, setup: CardSetup = {}): Promise<IssuedCard> {
  const customerId = await announceCustomer(h, as);
  const authorization = {
    fundingSourceType: setup.fundingSourceType ?? "settlement-account",
    timeoutDefault: setup.timeoutDefault,
    standIn: setup.standIn,
    webhook: setup.webhook,
    transactionFee: setup.transactionFee,
  };
  const program = await call(h, as, "POST", "/card-programs", {
    name: "Sandbox",
    network: "verve",
    type: "virtual",
    currency: "NGN",
    authorization,
  });
  if (program.status !== 201) throw new Error(JSON.stringify(program.body));
  const settlementAccount = program.body.data.authorization.settlementAccount as string;
  const settlement = await call(h, as, "GET", `/accounts/${settlementAccount}`);
  const funds = setup.funds ?? 100_000;
  if (funds > 0) {
    await call(h, as, "POST", "/simulation/payments/pay-in", {
      accountNumber: settlement.body.data.depositChannels[0].accountNumber,
      amount: funds,
    });
  }
  const cardAccount = authorization.fundingSourceType === "card-account";
  const card = await call(h, as, "POST", "/cards", {
    program: program.body.data.id,
    customer: customerId,
    reference: `card-${newId("message")}`,
    controls: setup.controls,
    ...(cardAccount && funds > 0 ? { amount: funds, debitSource: settlementAccount } : {}),
  });
  if (card.status !== 201) throw new Error(JSON.stringify(card.body));
  if (setup.activate !== false) {
    const secrets = await call(h, as, "GET", `/cards/${card.body.data.id}/secrets`);
    await call(h, as, "POST", `/cards/${card.body.data.id}/activate`, { cvv: secrets.body.data.cvv, pin: "1234" });
  }
  return {
    cardId: card.body.data.id,
    programId: program.body.data.id,
    customerId,
    fundingAccount: card.body.data.fundingSource,
    settlementAccount,
  };
}

export async function balanceOf(
  h: EngineHarness,
  as: Business,
  accountId: string,
): Promise<{ available: number; ledger: number; held: number }> {
  return (await call(h, as, "GET", `/accounts/${accountId}/balance`)).body.data;
}
