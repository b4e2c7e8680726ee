import {
  customerProjection,
  prepareSchema,
  registerMessagingGauges,
  serviceApp,
  type Service,
  type ServiceDeps,
  migrationsOf,
  serviceOutboxRelay,
} from "@cardhold/platform";
import { createBankTools } from "./banks/bank-tools";
import { createSandboxBiller } from "./billers/sandbox-biller";
import { configurationRoutes } from "./configuration/configuration.routes";
import { createConfiguration } from "./configuration/configuration";
import { bankRoutes } from "./http/bank-routes";
import { catalogRoutes } from "./http/catalog-routes";
import { paymentExtrasRoutes } from "./http/payment-extras-routes";
import { paymentRoutes } from "./http/routes";
import { subscribeToFees } from "./messaging/fees.consumer";
import { subscribeToLedgerResults } from "./messaging/ledger-results.consumer";
import { createBillPayments } from "./payments/bill-payments";
import { createBillChecks } from "./payments/check-bill";
import { createPaymentProgress } from "./payments/payment-progress";
import { createPaymentRequeue } from "./payments/requeue-payment";
import { createCompletedEventResend } from "./payments/resend-completed-event";
import { createPaymentWaiters } from "./payments/payment-waiters";
import { createPaymentWorker } from "./payments/payment.worker";
import { createPayoutChecks } from "./payouts/check-payout";
import { payoutRoutes } from "./payouts/payout.routes";
import { createPayouts } from "./payouts/payouts";
import { payoutCallsOf } from "./payouts/rail-calls";
import { createSandboxRail } from "./payouts/sandbox-rail";
import { settingsOf, type BillServiceOptions } from "./settings";
import { SCHEMA } from "./store/payments.store";

export const NAME = "bill-service";
export { SCHEMA };
export type { BillServiceOptions } from "./settings";
export type { Biller } from "./billers/biller";
const MIGRATIONS = migrationsOf("@cardhold/bill-service");

/**
 * Bill catalog and bill payments: checks a bill against its product, the customer projection and the biller, debits
 * through the engine's ledger over ledger-commands.v1 / ledger-results.v1, pays the biller, refunds on failure, and
 * announces the outcome on events.v1. Every step commits with its messages (outbox); a worker resumes stuck payments.
 * Payouts (bank transfers) are payments made the same way, sent to a bank rail instead of a biller.
 */
export async function createService(deps: ServiceDeps, opts: BillServiceOptions = {}): Promise<Service> {
  const settings = settingsOf(opts);
  await prepareSchema(deps.db, SCHEMA, MIGRATIONS);
  const customers = customerProjection(deps.db, SCHEMA, NAME);
  await customers.migrate();
  const biller = opts.biller ?? createSandboxBiller(deps.db, settings.sandbox);
  const rails = { test: opts.bankRail ?? createSandboxRail(deps.db, settings.sandbox), live: opts.liveBankRail };
  const relay = serviceOutboxRelay(deps, SCHEMA);
  registerMessagingGauges(deps, NAME, SCHEMA);
  const waiters = createPaymentWaiters();
  const schedule = { billerMs: settings.billerRecheckMs, ledgerMs: settings.ledgerResendMs };
  // The worker needs progress and progress wakes the worker: the wake-up is filled in once both exist.
  const signals = { wakeRelay: relay.wake, wakeWorker: () => {}, changed: waiters.changed };
  const progress = createPaymentProgress(deps.db, schedule, signals, deps.logger);
  const worker = createPaymentWorker({
    db: deps.db,
    logger: deps.logger,
    biller,
    progress,
    payoutCalls: payoutCallsOf(rails),
    billerTimeoutMs: settings.billerTimeoutMs,
    idleMs: settings.workerIdleMs,
  });
  signals.wakeWorker = worker.wake;
  const checkBill = createBillChecks({
    db: deps.db,
    biller,
    billerTimeoutMs: settings.billerTimeoutMs,
    customerWaitMs: settings.customerWaitMs,
  });
  const payments = createBillPayments({
    db: deps.db,
    checkBill,
    waiters,
    wakeRelay: relay.wake,
    schedule,
    paymentWaitMs: settings.paymentWaitMs,
  });
  // A fee announced on fees.v1 lags its creation as a customer on customers.v1 does: the same wait.
  const configuration = createConfiguration({ db: deps.db, feeWaitMs: settings.customerWaitMs });
  const bankTools = createBankTools({
    db: deps.db,
    liveAccountNames: opts.liveAccountNames,
    lookupTimeoutMs: settings.billerTimeoutMs,
  });
  const payouts = createPayouts({
    db: deps.db,
    checkPayout: createPayoutChecks({
      db: deps.db,
      bankTools,
      rails,
      customerWaitMs: settings.customerWaitMs,
      feeWaitMs: settings.customerWaitMs,
    }),
    outcome: payments.outcome,
    wakeRelay: relay.wake,
    schedule,
  });
  const app = serviceApp(
    NAME,
    deps,
    (app) => {
      catalogRoutes(app, deps.db);
      configurationRoutes(app, configuration);
      payoutRoutes(app, deps.db, payouts);
      paymentRoutes(app, deps.db, payments);
      paymentExtrasRoutes(app, {
        payments,
        requeue: createPaymentRequeue(deps.db, payments),
        resendCompletedEvent: createCompletedEventResend(deps.db, relay.wake),
      });
      bankRoutes(app, deps.db, bankTools);
    },
    SCHEMA,
  );
  return {
    name: NAME,
    app,
    async start() {
      await relay.announce();
      await customers.subscribe(deps.bus, deps.logger);
      await subscribeToFees(deps.db, deps.bus, deps.logger);
      await subscribeToLedgerResults(deps.db, deps.bus, progress, deps.logger);
      relay.start();
      worker.start();
    },
    async stop() {
      await worker.stop();
      await relay.stop();
    },
  };
}
