import {
  AppError,
  createHttpApp,
  idempotencyKeyOf,
  prepareSchema,
  registerOutboxGauges,
  type Service,
  type ServiceDeps,
  migrationsOf,
  serviceOutboxRelay,
} from "@cardhold/platform";
import { billingUseCases } from "./billings";
import { businessUseCases, type BusinessUseCases } from "./businesses";
import { createConsole, type ConsoleDeps } from "./console/console-app";
import { DEFAULT_DELAYED_REQUEST_AFTER_MS } from "./delayed-request-settings";
import { delayedRequests } from "./delayed-requests";
import { adminRoutes } from "./http/admin-routes";
import { billingAdminRoutes, billingRoutes } from "./http/billings-routes";
import { authenticate } from "./http/authenticate";
import { authorize } from "./http/authorize";
import { logsRoutes } from "./http/logs-routes";
import { createProxy, type UpstreamTarget } from "./http/proxy";
import { createRequestLog } from "./http/request-log";
import { requestsRoutes } from "./http/requests-routes";
import { rateLimiting } from "./rate-limits";
import type { RateLimits } from "./rate-limit-settings";
import { openApiDocument } from "./openapi/document";
import { docsRoutes } from "./openapi/docs-routes";
import { ownerOf, type Upstream } from "./routing";
export type { Upstream } from "./routing";
export { DEFAULT_RATE_LIMITS, RATE_LIMIT_SETTINGS, rateLimitsFrom, type RateLimits } from "./rate-limit-settings";
export { DEFAULT_DELAYED_REQUEST_AFTER_MS, DELAYED_REQUEST_SETTINGS } from "./delayed-request-settings";
import { SCHEMA } from "./store/businesses.store";

export const NAME = "api-gateway";
const MIGRATIONS = migrationsOf("@cardhold/api-gateway");

export interface GatewayDeps extends ServiceDeps {
  /** Each service's internal HTTP address, or (all-in-one) its app in this process. */
  upstreams: Record<Upstream, UpstreamTarget>;
  operatorToken?: string;
  /** SECRETS_KEY: seals the signing key a new business is announced with (businesses.v1). */
  secretsKey: string;
  /** The default limits per key and per business; undefined enforces none (tests of other features). */
  rateLimits?: RateLimits;
  /** DELAYED_REQUEST_AFTER_MS: when a write of a key with delayedRequests on is answered 202 (default 10 s). */
  delayedRequestAfterMs?: number;
  /** CONSOLE_DIR: the console's built files; apps/console/dist of the repository when undefined. */
  consoleDir?: string;
  /** The console's live stream timings (tests). */
  consoleStream?: ConsoleDeps["stream"];
  /**
   * TRUST_PROXY: Express's "trust proxy" (e.g. `loopback`, `10.0.0.0/8`, a hop count): whose X-Forwarded-For/-Proto/
   * -Host to believe, for the console's cookie (Secure), Origin check and sign-in limit. Unset: nobody's.
   */
  trustProxy?: string | number | boolean;
}

export interface GatewayService extends Service {
  businesses: BusinessUseCases;
}

/** The public entry point: authentication, routing to the owning service, request log, admin bootstrap, docs. */
export async function createService(deps: GatewayDeps): Promise<GatewayService> {
  await prepareSchema(deps.db, SCHEMA, MIGRATIONS);
  const relay = serviceOutboxRelay(deps, SCHEMA);
  // The gateway consumes nothing: its outbox is its only queue.
  registerOutboxGauges(deps.metrics.registry, deps.db, SCHEMA);
  const businesses = businessUseCases(deps.db, relay, deps.secretsKey, deps.logger);
  const proxy = createProxy({
    upstreams: deps.upstreams,
    internalToken: deps.internalToken,
    registry: deps.metrics.registry,
  });
  const requestLog = createRequestLog(deps.db, deps.logger);
  const doc = openApiDocument();
  const limits = rateLimiting(deps);
  const delayed = delayedRequests({
    db: deps.db,
    relay,
    logger: deps.logger,
    proxy,
    afterMs: deps.delayedRequestAfterMs ?? DEFAULT_DELAYED_REQUEST_AFTER_MS,
  });
  const billings = billingUseCases(deps.db);
  const consoleApp = createConsole({
    db: deps.db,
    logger: deps.logger,
    businesses,
    proxy,
    consoleDir: deps.consoleDir,
    stream: deps.consoleStream,
  });

  const app = createHttpApp({
    name: NAME,
    logger: deps.logger,
    metrics: deps.metrics,
    bodyLimit: deps.bodyLimit,
    // The gateway's port is public: its metrics describe every tenant's traffic, so only an operator reads them.
    metricsAccess: { operatorToken: deps.operatorToken },
    readiness: { database: () => deps.db.ping(), bus: () => deps.bus.ready() },
    routes: (app) => {
      app.get("/openapi.json", (_req, res) => void res.json(doc));
      docsRoutes(app, doc);
      if (deps.trustProxy !== undefined) app.set("trust proxy", deps.trustProxy);
      consoleApp.routes(app);
      adminRoutes(app, businesses, deps.operatorToken);
      limits.adminRoutes(app);
      billingAdminRoutes(app, billings, deps.operatorToken);
      // Refused requests are not logged: a flood must not turn into as many writes.
      app.use(
        authenticate(businesses, consoleApp.sessionCaller),
        limits.middleware,
        requestLog.middleware,
        authorize(),
      );
      logsRoutes(app, deps.db, requestLog);
      consoleApp.apiRoutes(app);
      requestsRoutes(app, delayed);
      billingRoutes(app, deps.db, billings);
      app.use(async (req, res, next) => {
        const owner = ownerOf(req.path);
        if (!owner) throw new AppError(404, "not-found", `No route for ${req.method} ${req.path}`);
        idempotencyKeyOf(req); // a bad Idempotency-Key is a 400 here, before it travels
        if (delayed.applies(req)) await delayed.forward(req, res, owner);
        else await proxy.forward(req, res, next, owner);
      });
    },
  });

  return {
    name: NAME,
    app,
    businesses,
    async start() {
      await relay.announce();
      relay.start();
      await limits.start();
      delayed.start();
    },
    async stop() {
      consoleApp.stop();
      await delayed.stop();
      await relay.stop();
      await limits.stop();
      await proxy.close();
      await requestLog.flush();
    },
  };
}
