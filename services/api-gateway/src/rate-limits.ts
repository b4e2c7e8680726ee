import type { Express, RequestHandler } from "express";
import type { Logger } from "pino";
import type { Db } from "@cardhold/db";
import { rateLimit } from "./http/rate-limit";
import { rateLimitAdminRoutes } from "./http/rate-limit-admin-routes";
import { createRateLimiter } from "./rate-limiter";
import { DEFAULT_RATE_LIMITS, type RateLimits } from "./rate-limit-settings";
import { createRateLimitSync } from "./rate-limit-sync";

export interface RateLimitingDeps {
  db: Db;
  logger: Logger;
  operatorToken?: string;
  /** The defaults; undefined enforces nothing (tests of other features); the overrides API works either way. */
  rateLimits?: RateLimits;
  /** No other gateway uses this database (the all-in-one): the buckets are not shared (see rate-limit-sync). */
  soleInstance?: boolean;
}

/** Fair limits (issue 21): the buckets, their sharing between instances, the middleware and the admin routes. */
export function rateLimiting(deps: RateLimitingDeps) {
  const limiter = createRateLimiter(deps.rateLimits ?? DEFAULT_RATE_LIMITS);
  const sync = deps.rateLimits && createRateLimitSync(deps.db, limiter, deps.logger, { shared: !deps.soleInstance });
  const pass: RequestHandler = (_req, _res, next) => next();
  const limited = rateLimit(limiter);
  // A request wakes a quiet sync (rate-limit-sync.ts): what it admits is told to the others within SYNC_MS.
  const limitedAndTold: RequestHandler = (req, res, next) => {
    sync?.wake();
    limited(req, res, next);
  };
  return {
    middleware: sync ? limitedAndTold : pass,
    adminRoutes: (app: Express) => rateLimitAdminRoutes(app, deps.db, limiter, deps.operatorToken),
    start: async () => sync?.start(),
    stop: async () => sync?.stop(),
  };
}
