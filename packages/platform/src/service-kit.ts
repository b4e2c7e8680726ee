import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Express } from "express";
import type { Logger } from "pino";
import type { Bus } from "@cardhold/bus";
import { migrateMessaging } from "@cardhold/bus";
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
