import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Express } from "express";
import type { Logger } from "pino";
import type { Bus, DirectLane, OutboxRelay } from "@cardhold/bus";
import { createOutboxRelay, migrateMessaging } from "@cardhold/bus";
import { migrateFromDir, type Db } from "@cardhold/db";
import { createHttpApp } from "./http-app";
import { idempotentWrites, migrateIdempotency } from "./idempotency";
import type { Metrics } from "./metrics";

/** What every service gets from its composition root (the distributed main or the all-in-one runner). */
export interface ServiceDeps {
  db: Db;
  bus: Bus;
  logger: Logger;
  metrics: Metrics;
  /** Required on every request except health, readiness and metrics. */
  internalToken: string;
  bodyLimit?: string;
  /** The clock Idempotency-Keys age by (tests move it); Date.now by default. */
  now?: () => number;
  /**
   * No other process uses this database: the all-in-one on its own embedded server, private and locked against a
   * second start. Work that only keeps several instances in step (see SOLE_INSTANCE_RELAY, the gateway's shared rate
   * limits) is then slowed or left out.
   */
  soleInstance?: boolean;
}

/**
 * An outbox relay on a database no other process writes: every row is handed over by the transaction that committed
 * it (or the relay is woken), so reading the table only recovers what a lost commit answer left, and the relay reads
 * it first after any failure anyway. With nothing published to delete, once every 5 s instead of twice a second (what
 * it published is still deleted within half a second), and a lease renewed once a minute.
 */
export const SOLE_INSTANCE_RELAY = { recoveryReadMs: 5_000, leaseMs: 120_000 } as const;

/**
 * The service's outbox relay, read as often as the instances sharing its database need; with `directLane`, the rows of
 * its topic that may go straight to their consumer do.
 */
export function serviceOutboxRelay(deps: ServiceDeps, schema: string, directLane?: DirectLane): OutboxRelay {
  const { db, bus, logger } = deps;
  return createOutboxRelay({
    db,
    schema,
    bus,
    logger,
    directLane,
    ...(deps.soleInstance ? SOLE_INSTANCE_RELAY : {}),
  });
}

/**
 * The HTTP app of an internal service: internal-token guard, readiness on database and bus, and writes with an
 * Idempotency-Key kept in the service's `schema` (the one its effects commit in).
 */
export function serviceApp(name: string, deps: ServiceDeps, routes: (app: Express) => void, schema: string): Express {
  return createHttpApp({
    name,
    logger: deps.logger,
    metrics: deps.metrics,
    bodyLimit: deps.bodyLimit,
    internalToken: deps.internalToken,
    readiness: { database: () => deps.db.ping(), bus: () => deps.bus.ready() },
    routes: (app) => {
      app.use(idempotentWrites({ db: deps.db, schema, now: deps.now }));
      routes(app);
    },
  });
}

/** Applies the service's own migrations and the outbox/inbox and idempotency-key tables in its schema. */
export async function prepareSchema(db: Db, schema: string, migrationsDir: string): Promise<void> {
  await migrateFromDir(db, schema, migrationsDir);
  await migrateMessaging(db, schema);
  await migrateIdempotency(db, schema);
}

/**
 * A service's migrations folder, found through its package rather than relative to the calling file, so it is the
 * same from the sources, from the service's own bundle and from the `cardhold` bundle that holds every service.
 */
export function migrationsOf(packageName: string): string {
  return join(dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`)), "migrations");
}
