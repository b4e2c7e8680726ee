import { Counter, Gauge, type Registry } from "prom-client";
import type { Db } from "@cardhold/db";
import {
  prepareSchema,
  registerMessagingGauges,
  scrapeRead,
  sealPlainSigningKeys,
  serviceApp,
  signingKeySealer,
  type Service,
  type ServiceDeps,
  migrationsOf,
  serviceOutboxRelay,
} from "@cardhold/platform";
import { createAnswerReturn } from "./delivery/answer-return";
import { createDeliveryWorker, SOLE_INSTANCE_POLLS } from "./delivery/delivery.worker";
import { createSigningKeyCache } from "./delivery/signing-keys";
import { DEFAULT_RETRY_DELAYS_MS, DEFAULT_RETRY_WINDOW_MS, type RetrySchedule } from "./domain/retry-schedule";
import { eventIntakeRoutes } from "./http/event-intake.routes";
import { eventRoutes } from "./http/routes";
import { createEventIntake, subscribeToEvents, subscribeToWebhooks } from "./messaging/consumers";
import { dueDeliveries, type DueDeliveries } from "./store/deliveries.store";
import type { QueueVacuumOptions } from "./store/queue-vacuum";
import { createRoutingTables } from "./store/routing-tables";
import { SCHEMA } from "./store/webhooks.store";

export const NAME = "event-dispatcher";
const MIGRATIONS = migrationsOf("@cardhold/event-dispatcher");

export interface DispatcherOptions {
  /** 64 hex characters: the key signing keys are sealed with (SECRETS_KEY, the webhook-registry's). */
  secretsKey: string;
  retrySchedule?: RetrySchedule;
  maxInFlight?: number;
  maxInFlightPerWebhook?: number;
  /** How long an in-flight delivery stays claimed; after a crash it is retried once this passes. */
  claimMs?: number;
  /** Live-mode deliveries may connect to private, loopback … addresses (on-premise receivers); off by default. */
  allowPrivateTargets?: boolean;
  /** When the delivery worker vacuums its queue table (defaults: every 2,000 deliveries, at most once a second). */
  queueVacuum?: QueueVacuumOptions;
}

/**
 * Signed delivery of events.v1 to webhooks, with retries; decision answers go back to the engine that asked (posted), or
 * on decisions.v1.
 */
export async function createService(deps: ServiceDeps, opts: DispatcherOptions): Promise<Service> {
  await prepareSchema(deps.db, SCHEMA, MIGRATIONS);
  const keys = signingKeySealer(opts.secretsKey);
  const sealed = await sealPlainSigningKeys(deps.db, { table: "dispatcher.webhooks", seal: keys.seal });
  if (sealed > 0) deps.logger.info({ sealed }, "sealed signing keys kept in plain by an earlier version");
  const relay = serviceOutboxRelay(deps, SCHEMA);
  const decisionsNotSent = new Counter({
    name: "decisions_not_sent_total",
    help: "Decision events not sent because too little time was left before their deadline (platform overloaded)",
    registers: [deps.metrics.registry],
  });
  registerMessagingGauges(deps, NAME, SCHEMA);
  registerDeliveryQueueGauges(deps.metrics.registry, deps.db);
  const answerReturn = createAnswerReturn(deps.internalToken, deps.logger, deps.metrics.registry);
  const worker = createDeliveryWorker({
    db: deps.db,
    logger: deps.logger,
    relay,
    signingKeys: createSigningKeyCache(keys),
    schedule: opts.retrySchedule ?? { delaysMs: DEFAULT_RETRY_DELAYS_MS, windowMs: DEFAULT_RETRY_WINDOW_MS },
    maxInFlight: opts.maxInFlight,
    maxInFlightPerWebhook: opts.maxInFlightPerWebhook,
    claimMs: opts.claimMs,
    allowPrivateTargets: opts.allowPrivateTargets,
    onDecisionNotSent: () => decisionsNotSent.inc(),
    queueVacuum: opts.queueVacuum,
    answerReturn,
    ...(deps.soleInstance && SOLE_INSTANCE_POLLS),
  });
  const routing = createRoutingTables();
  const intake = createEventIntake(deps.db, deps.logger, routing, worker);
  let started = false;
  const app = serviceApp(
    NAME,
    deps,
    (app) => {
      eventRoutes(app, deps.db, worker.wake);
      eventIntakeRoutes(app, intake, () => started);
    },
    SCHEMA,
  );
  return {
    name: NAME,
    app,
    async start() {
      await relay.announce();
      await subscribeToWebhooks(deps.db, deps.bus, deps.logger, keys, routing);
      await subscribeToEvents(deps.bus, intake);
      relay.start();
      worker.start();
      started = true;
    },
    async stop() {
      started = false;
      await worker.stop();
      await relay.stop();
      await answerReturn.close();
    },
  };
}

/** The delivery queue as an operator watches it: deliveries due and not claimed, per kind, and the longest wait. */
function registerDeliveryQueueGauges(registry: Registry, db: Db) {
  const due = scrapeRead(() => dueDeliveries(db));
  const perPolicy = (name: string, help: string, pick: (d: DueDeliveries) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["policy"] as const,
      registers: [registry],
      async collect() {
        const read = await due();
        if (!read) return;
        this.set({ policy: "decision" }, pick(read.decision));
        this.set({ policy: "notification" }, pick(read.notification));
      },
    });
  perPolicy(
    "deliveries_due",
    "Deliveries whose next attempt is due and that no worker has claimed (capped at 100000)",
    (d) => d.count,
  );
  perPolicy(
    "deliveries_oldest_due_seconds",
    "How long the earliest due, unclaimed delivery has been due",
    (d) => d.oldestDueSeconds,
  );
}
