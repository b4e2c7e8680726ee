import type { AddressInfo } from "node:net";
import type { NextFunction, Request, Response } from "express";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Db } from "@cardhold/db";
import {
  AppError,
  createAdmission,
  customerProjection,
  prepareSchema,
  registerMessagingGauges,
  scrapedGauge,
  scrapeRead,
  serviceApp,
  type Service,
  type ServiceDeps,
  migrationsOf,
  type Admission,
  type AdmissionOptions,
  serviceOutboxRelay,
} from "@cardhold/platform";
import { LedgerError } from "./domain/ledger";
import { createAnswerIntake } from "./authorizations/answer-intake";
import { decisionAnswerRoutes } from "./authorizations/decision-answers.routes";
import { createDecisionLateness } from "./authorizations/decision-lateness";
import { createDecisionWaiters, type DecisionWaiters } from "./authorizations/decision-waiters";
import { createTimeoutDefaults } from "./authorizations/timeout-defaults";
import { simulation } from "./authorizations/simulation";
import { createCardVault } from "./cards/card-vault";
import { createDeadlineSweeper } from "./authorizations/deadline-sweeper";
import { accountRoutes } from "./accounts/accounts.routes";
import { authorizationRoutes, simulationRoutes } from "./authorizations/authorizations.routes";
import { cardPrintingRoutes, cardRoutes } from "./cards/cards.routes";
import { feeRoutes } from "./fees/fees.routes";
import { fxRoutes } from "./fx/fx.routes";
import type { FxRatesProvider } from "./fx/rates-provider";
import { merchantRoutes } from "./merchants/merchants.routes";
import { disputeRoutes, disputeSimulationRoutes } from "./disputes/disputes.routes";
import { paymentRequestRoutes } from "./payment-requests/payment-requests.routes";
import { programRoutes } from "./programs/programs.routes";
import { createNetworkInterface, type NetworkInterfaceOptions } from "./network-interface/network-interface";
import { expandLoaders } from "./http/loaders";
import { subscribeToBusinesses } from "./messaging/businesses.consumer";
import { createDispatcherLane } from "./messaging/dispatcher-lane";
import { subscribeToDecisions } from "./messaging/decisions.consumer";
import { subscribeToLedgerCommands } from "./messaging/ledger-commands.consumer";
import { subscribeToWebhooks } from "./messaging/webhooks.consumer";
import { SCHEMA } from "./store/accounts.store";
import { awaitingAnswers, type AuthorizationRow } from "./store/authorizations.store";

export const NAME = "authorization-engine";
export { SCHEMA };
export { newCardDataKey } from "./cards/card-vault";
const MIGRATIONS = migrationsOf("@cardhold/authorization-engine");

export interface EngineOptions {
  /** 64 hex characters: the AES-256 key PAN and CVV are sealed with (CARD_DATA_KEY). */
  cardDataKey: string;
  /** How long past the 4 s decision window before the sweeper applies the timeout default itself. */
  sweeperGraceMs?: number;
  /** Load shedding of new authorization requests (@cardhold/platform's admission), places shared per business. */
  admission?: Omit<AdmissionOptions, "onShed" | "now">;
  /** FX rates for live mode; none (no live provider ships yet): live FX answers 403. Test mode uses the sandbox's. */
  liveFxRates?: FxRatesProvider;
  /** The ISO 8583 card-network interface on its own TCP port (ISO8583_PORT); off when absent. */
  networkInterface?: NetworkInterfaceOptions;
  /**
   * This process's internal address as the event dispatchers reach it (ENGINE_ANSWER_URL): each decision event carries
   * it, and the receiver's answer is posted straight back here instead of travelling through decisions.v1.
   */
  answerTo?: string;
  /**
   * A dispatcher's internal address (EVENT_DISPATCHER_URL): the outbox relay posts authorizations' events there
   * instead of publishing them on events.v1, where each key's order allows (see createDispatcherLane). Unset: Kafka only.
   */
  eventsTo?: string;
}

export interface EngineService extends Service {
  /** Where the ISO 8583 network interface listens; undefined when it is off (or not started). */
  networkInterfaceAddress(): AddressInfo | undefined;
}

/**
 * Card programs, cards, accounts, the ledger and authorizations: the real-time decision (ARCHITECTURE §5). Answers
 * come back posted to this process (answerTo) or on decisions.v1; overdue ones end with the timeout default through the
 * deadline sweeper.
 */
export async function createService(deps: ServiceDeps, opts: EngineOptions): Promise<EngineService> {
  await prepareSchema(deps.db, SCHEMA, MIGRATIONS);
  const customers = customerProjection(deps.db, SCHEMA, NAME);
  await customers.migrate();
  const vault = createCardVault(opts.cardDataKey);
  const lane =
    opts.eventsTo === undefined
      ? undefined
      : createDispatcherLane(opts.eventsTo, deps.internalToken, deps.logger, deps.metrics.registry);
  const relay = serviceOutboxRelay(deps, SCHEMA, lane);
  const sweeperGraceMs = opts.sweeperGraceMs ?? 50;
  const lateness = createDecisionLateness(deps.metrics.registry, deps.logger);
  const defaults = createTimeoutDefaults(deps.db, lateness, deps.logger);
  const applyDefault = (asked: AuthorizationRow) =>
    defaults.apply(asked.id, { by: "waiting-request", overdueByMs: sweeperGraceMs, accountId: asked.account_id });
  const waiters = createDecisionWaiters(deps.db, { graceMs: sweeperGraceMs, applyDefault });
  const sweeper = createDeadlineSweeper({
    db: deps.db,
    logger: deps.logger,
    waiters,
    defaults,
    graceMs: sweeperGraceMs,
  });
  const shed = new Counter({
    name: "authorizations_shed_total",
    help: "New authorization requests refused at once (503 platform-overloaded) because the engine was saturated",
    registers: [deps.metrics.registry],
  });
  const admission = createAdmission({ ...opts.admission, onShed: () => shed.inc() });
  registerLoadGauges(deps.metrics.registry, deps.db, admission, waiters);
  registerMessagingGauges(deps, NAME, SCHEMA);
  const takeAnswer = createAnswerIntake({ db: deps.db, waiters, lateness });
  const answerTo = opts.answerTo;
  const sim = simulation({ db: deps.db, waiters, sweeperGraceMs, admission, answerTo });
  const network =
    opts.networkInterface &&
    createNetworkInterface(
      { db: deps.db, vault, logger: deps.logger, waiters, admission, answerTo },
      deps.metrics.registry,
      opts.networkInterface,
    );
  const loaders = expandLoaders(deps.db);
  const app = serviceApp(
    NAME,
    deps,
    (app) => {
      const cards = { db: deps.db, vault };
      programRoutes(app, cards, loaders);
      cardRoutes(app, cards, loaders);
      accountRoutes(app, deps.db, loaders);
      feeRoutes(app, deps.db, loaders);
      fxRoutes(app, { db: deps.db, liveRates: opts.liveFxRates });
      authorizationRoutes(app, deps.db, loaders);
      merchantRoutes(app, deps.db);
      disputeRoutes(app, deps.db, loaders);
      paymentRequestRoutes(app, deps.db, loaders);
      simulationRoutes(app, deps.db, sim);
      // After simulationRoutes: its /simulation guard (test keys only) must run first.
      disputeSimulationRoutes(app, deps.db);
      cardPrintingRoutes(app, cards);
      decisionAnswerRoutes(app, takeAnswer);
      app.use(ledgerRefusals);
    },
    SCHEMA,
  );
  return {
    name: NAME,
    app,
    async start() {
      await relay.announce();
      const messaging = { db: deps.db, bus: deps.bus, logger: deps.logger, relay };
      await customers.subscribe(deps.bus, deps.logger);
      await subscribeToBusinesses(deps.db, deps.bus, deps.logger);
      await subscribeToWebhooks(deps.db, deps.bus, deps.logger);
      await subscribeToDecisions({ bus: deps.bus, logger: deps.logger, takeAnswer });
      await subscribeToLedgerCommands(messaging);
      relay.start();
      sweeper.start();
      await network?.start();
    },
    networkInterfaceAddress: () => network?.address(),
    async stop() {
      await network?.stop();
      await sweeper.stop();
      await relay.stop();
      await lane?.close();
    },
  };
}

/** A movement the ledger refuses is the request's fault (too much money, or not enough): 422 with the reason. */
function ledgerRefusals(err: unknown, _req: Request, _res: Response, next: NextFunction) {
  if (err instanceof LedgerError && (err.code === "balance-limit" || err.code === "insufficient-funds")) {
    return next(new AppError(422, err.code, err.message));
  }
  next(err);
}

/**
 * What an operator watches for saturation: authorizations under way, requests queued for a place, waits for answers —
 * this process's, and (read from the database on scrape) every engine's authorizations still awaiting an answer.
 */
function registerLoadGauges(registry: Registry, db: Db, admission: Admission, waiters: DecisionWaiters) {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge(
    "authorizations_in_progress",
    "New authorizations admitted and not yet decided (admission places taken)",
    () => admission.state().inProgress,
  );
  gauge(
    "authorization_admission_places",
    "Admission places now: AUTHORIZATION_MAX_IN_PROGRESS, fewer while the engine's own part of a request is slow",
    () => admission.places(),
  );
  gauge(
    "authorizations_waiting_for_place",
    "New authorization requests waiting for an admission place",
    () => admission.state().waiting,
  );
  gauge(
    "authorizations_awaiting_decision",
    "Requests in this engine process waiting for their authorization's decision",
    () => waiters.waitingCount(),
  );
  new Gauge({
    name: "database_connections_waiting",
    help: "Transactions and single statements of this engine process waiting for a database connection, by priority (decisions go first)",
    labelNames: ["priority"] as const,
    registers: [registry],
    collect() {
      const { urgent, ordinary } = db.waitingForConnection();
      this.set({ priority: "decision" }, urgent);
      this.set({ priority: "ordinary" }, ordinary);
    },
  });
  const awaiting = scrapeRead(() => awaitingAnswers(db));
  const awaitingHelp = "Authorizations (of every engine process) awaiting their receiver's answer (capped at 100000)";
  const overdueHelp = "How far past its answer deadline the earliest authorization still awaiting an answer is";
  scrapedGauge(registry, "authorizations_awaiting_answer", awaitingHelp, awaiting, (a) => a.count);
  scrapedGauge(registry, "authorizations_answer_overdue_seconds", overdueHelp, awaiting, (a) => a.overdueSeconds);
}
