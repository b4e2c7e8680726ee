import { timingSafeEqual } from "node:crypto";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "@cardhold/db";
import { AppError } from "./errors";
import { newId } from "./ids";
import { hasLoneSurrogateEscape, jsonTextDepth, MAX_JSON_DEPTH } from "./json-limits";
import type { Metrics } from "./metrics";
import { INTERNAL_HEADERS } from "./request-context";
import { AppRequest, handleWithoutPrototypeSwap } from "./request-classes";

export type ReadinessCheck = () => Promise<boolean>;

export interface HttpAppOptions {
  name: string;
  logger: Logger;
  metrics: Metrics;
  bodyLimit?: string;
  /** When set, every route except /health, /ready and /metrics requires this value in x-internal-token. */
  internalToken?: string;
  /**
   * Who may read /metrics: everyone (the default: services behind the gateway), or, on a public port, only a caller
   * with this operator token in x-operator-token (`{ operatorToken: undefined }`: nobody, 404).
   */
  metricsAccess?: "open" | { operatorToken: string | undefined };
  readiness: Record<string, ReadinessCheck>;
  routes: (app: Express) => void;
}

const OPEN_PATHS = new Set(["/health", "/ready", "/metrics"]);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

declare module "express-serve-static-core" {
  interface Request {
    log: Logger;
    requestId: string;
    /** The exact bytes of a JSON body, for forwarding and signature checks. */
    rawBody?: Buffer;
    /** When this process began handling the request (ms since the epoch). */
    receivedAt: number;
  }
}

export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  handleWithoutPrototypeSwap(app);
  app.disable("x-powered-by");
  app.set("query parser", "extended");
  app.use(refuseAbsoluteForm);
  app.use(refuseNulInUrl);
  app.use(requestIdAndMetrics(opts));
  app.get("/health", (_req, res) => res.json({ status: "ok", service: opts.name }));
  app.get("/ready", readinessHandler(opts.readiness));
  app.get("/metrics", async (req, res) => {
    guardMetrics(req, opts.metricsAccess ?? "open");
    res.type(opts.metrics.registry.contentType).send(await opts.metrics.registry.metrics());
  });
  if (opts.internalToken) app.use(requireInternalToken(opts.internalToken));
  const bodyLimit = opts.bodyLimit ?? "1mb";
  app.use(
    express.json({
      limit: bodyLimit,
      type: () => true,
      verify: (req, _res, buf) => {
        if (jsonTextDepth(buf) > MAX_JSON_DEPTH)
          throw Object.assign(new Error("JSON nested too deep"), { type: TOO_DEEP_TYPE });
        // PostgreSQL text cannot hold U+0000: refuse it here rather than fail deep inside a service.
        if (buf.includes(NUL_ESCAPE)) throw Object.assign(new Error("NUL character"), { type: NUL_TYPE });
        if (hasLoneSurrogateEscape(buf.toString("utf8")))
          throw Object.assign(new Error("lone surrogate"), { type: SURROGATE_TYPE });
        (req as Request).rawBody = buf;
      },
    }),
  );
  // Whatever else fails while the body is read (a gzip or br body that does not decode …) is the client's body.
  app.use((err: unknown, _req: Request, _res: Response, next: NextFunction) =>
    next(
      toAppError(err, bodyLimit) ??
        new AppError(400, "invalid-body", "Request body could not be read: check its Content-Encoding"),
    ),
  );
  opts.routes(app);
  app.use((req: Request) => {
    throw new AppError(404, "not-found", `No route for ${req.method} ${req.path}`);
  });
  app.use(errorHandler(opts.logger, bodyLimit));
  return app;
}

function requestIdAndMetrics(opts: HttpAppOptions) {
  return (req: Request, res: Response, next: NextFunction) => {
    req.receivedAt = Date.now();
    const incoming = req.header(INTERNAL_HEADERS.requestId);
    req.requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : newId("request");
    withLazyRequestLogger(req, opts.logger);
    res.setHeader(INTERNAL_HEADERS.requestId, req.requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      if (OPEN_PATHS.has(req.path)) return;
      const route = (req.route?.path as string | undefined) ?? "unmatched";
      const labels = { method: req.method, route, status: String(res.statusCode) };
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      opts.metrics.httpRequests.inc(labels);
      opts.metrics.httpDuration.observe(labels, seconds);
      const ms = Math.round(seconds * 1000);
      opts.logger.info(
        { requestId: req.requestId, method: req.method, path: req.path, status: res.statusCode, ms },
        "request",
      );
    });
    next();
  };
}

/**
 * `req.log`, a child logger carrying the request id, made on its first use: made for every request, its bindings'
 * redaction and serialization were ~2.5 KB allocated per request per app, for a logger most requests never use. On a
 * request born an AppRequest the getter is its class's, so the request keeps its shape; any other request gets its own
 * accessor property.
 */
export function withLazyRequestLogger(req: Request, logger: Logger): void {
  if (req instanceof AppRequest) {
    const lazy = req as unknown as LazyLog;
    lazy.logSource = logger;
    lazy.madeLog = undefined;
    return;
  }
  let child: Logger | undefined;
  Object.defineProperty(req, "log", {
    configurable: true,
    enumerable: true,
    get: () => (child ??= logger.child({ requestId: req.requestId })),
    set: (value: Logger) => void (child = value),
  });
}

interface LazyLog {
  logSource?: Logger;
  madeLog?: Logger;
  requestId: string;
}

Object.defineProperty(AppRequest.prototype, "log", {
  configurable: true,
  get(this: LazyLog) {
    return (this.madeLog ??= this.logSource?.child({ requestId: this.requestId }));
  },
  set(this: LazyLog, value: Logger) {
    this.madeLog = value;
  },
});

/** `GET http://host/path` (a proxy's absolute form) is not a request for this server. */
function refuseAbsoluteForm(req: Request, _res: Response, next: NextFunction) {
  if (!req.url.startsWith("/"))
    throw new AppError(400, "invalid-request", "The request target must be a path (origin form), not an absolute URL");
  next();
}

/** PostgreSQL text cannot hold U+0000: a `%00` in the path or query (an id, a filter value) is refused here. */
function refuseNulInUrl(req: Request, _res: Response, next: NextFunction) {
  if (req.url.includes("%00"))
    throw new AppError(400, "invalid-request", "The URL must not contain the NUL character (%00)");
  next();
}

function guardMetrics(req: Request, access: NonNullable<HttpAppOptions["metricsAccess"]>) {
  if (access === "open") return;
  if (!access.operatorToken) throw new AppError(404, "not-found", "No route for GET /metrics");
  const given = req.header("x-operator-token");
  if (!given || !sameSecret(given, access.operatorToken))
    throw new AppError(401, "unauthorized", "A valid X-Operator-Token header is required");
}

function requireInternalToken(token: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = req.header(INTERNAL_HEADERS.token);
    if (!given || !sameSecret(given, token)) {
      throw new AppError(401, "unauthorized", "internal endpoint: requests must come through the API gateway");
    }
    next();
  };
}

function readinessHandler(checks: Record<string, ReadinessCheck>) {
  return async (_req: Request, res: Response) => {
    const results: Record<string, boolean> = {};
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        results[name] = await check().catch(() => false);
      }),
    );
    const ready = Object.values(results).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not-ready", checks: results });
  };
}

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Turns every error into the error model; internals are logged with an error id, never sent. */
export function errorHandler(logger: Logger, bodyLimit = "1mb") {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const error = toAppError(err, bodyLimit);
    if (error) {
      res.status(error.statusCode).json(error.toBody());
      return;
    }
    const errorId = newId("request").replace("req.", "err.");
    if (isDatabaseUnavailable(err)) {
      (req.log ?? logger).warn({ err, errorId, method: req.method, path: req.path }, "database unavailable");
      res.status(503).set("retry-after", "1").json({
        statusCode: 503,
        code: "service-unavailable",
        message: "The service's database is unavailable, try again shortly",
        errorId,
      });
      return;
    }
    (req.log ?? logger).error({ err, errorId, method: req.method, path: req.path }, "unhandled error");
    res.status(500).json({ statusCode: 500, code: "internal-error", message: "Internal server error", errorId });
  };
}

const TOO_DEEP_TYPE = "entity.too.deep";
const NUL_TYPE = "entity.nul.character";
const SURROGATE_TYPE = "entity.lone.surrogate";
const NUL_ESCAPE = Buffer.from("\\u0000");

function toAppError(err: unknown, bodyLimit: string): AppError | undefined {
  if (err instanceof AppError) return err;
  const parserError = err as BodyParserError;
  if (parserError?.type === "entity.too.large") {
    return new AppError(413, "payload-too-large", `Request body is larger than the limit of ${bodyLimit}`);
  }
  if (parserError?.type === TOO_DEEP_TYPE) {
    return new AppError(
      400,
      "invalid-json",
      `Request body nests objects and arrays deeper than the limit of ${MAX_JSON_DEPTH} levels`,
    );
  }
  if (parserError?.type === "entity.parse.failed")
    return new AppError(400, "invalid-json", "Request body is not valid JSON");
  if (parserError?.type === NUL_TYPE)
    return new AppError(400, "invalid-json", "Strings must not contain the NUL character (\\u0000)");
  if (parserError?.type === SURROGATE_TYPE) {
    return new AppError(400, "invalid-json", "Strings must be Unicode text: a \\uD800–\\uDFFF escape needs its pair");
  }

  // The router's decodeURIComponent of a path parameter (`%E0%A4%A`, `%C0%AF`, a lone surrogate's bytes) sets 400.
  if (err instanceof URIError && parserError.status === 400) {
    return new AppError(400, "invalid-request", "The URL path is not valid percent-encoded UTF-8");
  }
  if (parserError?.type === "encoding.unsupported" || parserError?.type === "charset.unsupported") {
    return new AppError(415, "unsupported-media-type", "Request body encoding is not supported");
  }
  return undefined;
}
