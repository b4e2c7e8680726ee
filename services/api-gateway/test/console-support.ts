/**
 * The gateway with its console, in process over an embedded-PostgreSQL database, in front of a fake service that
 * keeps card authorizations (GET /card-authorizations with the filter entries the stream sends) and answers the
 * rest like harness.ts's stand-in. The fake is a platform app, reached over HTTP or handed requests in process.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Request } from "express";
import { createMemoryBus } from "@cardhold/bus";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import {
  AppError,
  createHttpApp,
  createLogger,
  createMetrics,
  listen,
  newDataKey,
  requestContext,
  type Listening,
} from "@cardhold/platform";
import { UPSTREAMS, type Upstream } from "../src/routing";
import { createService, type GatewayDeps, type GatewayService } from "../src/service";
import { callGateway, type GatewayCall } from "../../../test/support/api-client";
import { INTERNAL, OPERATOR } from "./harness";

export interface FakeAuthorization {
  id: string;
  status: string;
  updatedAt: string;
}

/** What reached the fake service. */
export interface Forwarded {
  method: string;
  url: string;
  keyId: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeService {
  app: ReturnType<typeof createHttpApp>;
  forwarded: Forwarded[];
  /** Adds or changes an authorization of a business's mode (updatedAt: now). */
  put(scope: { businessId: string; mode: string }, a: { id: string; status: string }): FakeAuthorization;
}

type Predicate = (a: FakeAuthorization) => boolean;

/** `updatedAt|gted|<time>` and `field:value` entries; anything else is the language's 400. */
function predicates(filter: string | undefined): Predicate[] {
  return (filter ?? "")
    .split(" ")
    .filter(Boolean)
    .map((entry): Predicate => {
      const since = /^updatedAt\|gted\|(.+)$/.exec(entry);
      if (since) return (a) => Date.parse(a.updatedAt) >= Date.parse(since[1]!);
      const equal = /^(\w+):(\S+)$/.exec(entry);
      if (equal) return (a) => (a as unknown as Record<string, unknown>)[equal[1]!] === equal[2];
      throw new AppError(400, "invalid-query", `the format of the filter parameter is incorrect: ${entry}`);
    });
}

function listPage(req: Request, all: FakeAuthorization[]) {
  const filter = predicates(typeof req.query.filter === "string" ? req.query.filter : undefined);
  const limit = Number(req.query.limit ?? 20);
  const sign = req.query.sort === "-updatedAt" ? -1 : 1;
  const found = all
    .filter((a) => filter.every((matches) => matches(a)))
    .sort((x, y) => sign * (Date.parse(x.updatedAt) - Date.parse(y.updatedAt)));
  return { code: "success", data: found.slice(0, limit), metadata: { hasMore: found.length > limit } };
}

export function fakeService(): FakeService {
  const forwarded: Forwarded[] = [];
  const authorizations = new Map<string, Map<string, FakeAuthorization>>();
  const scoped = (businessId: string, mode: string) => {
    const key = `${businessId}/${mode}`;
    if (!authorizations.has(key)) authorizations.set(key, new Map());
    return authorizations.get(key)!;
  };
  const app = createHttpApp({
    name: "fake-service",
    logger: createLogger("fake-service", "silent"),
    metrics: createMetrics("fake-service", false),
    internalToken: INTERNAL,
    readiness: {},
    routes: (app) => {
      app.use((req, _res, next) => {
        forwarded.push({
          method: req.method,
          url: req.originalUrl,
          keyId: req.header("x-key-id"),
          headers: req.headers,
        });
        next();
      });
      app.get("/card-authorizations", (req, res) => {
        const { businessId, mode } = requestContext(req);
        res.json(listPage(req, [...scoped(businessId, mode).values()]));
      });
      app.get("/cards/:id/secrets", (_req, res) => {
        res.set("cache-control", "no-store").json({ code: "success", data: { pan: "5061000000000001", cvv: "123" } });
      });
      app.use((req, res) => {
        res.status(req.method === "POST" ? 201 : 200).json({ code: "success", data: { echoed: req.body ?? null } });
      });
    },
  });
  return {
    app,
    forwarded,
    put(scope, a) {
      const record = { ...a, updatedAt: new Date().toISOString() };
      scoped(scope.businessId, scope.mode).set(a.id, record);
      return record;
    },
  };
}

/** A console build: index.html naming one asset, and a file at the root. */
export function fakeConsoleBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), "console-dist-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(
    join(dir, "index.html"),
    '<!doctype html><html><head><script type="module" src="/console/assets/index-abc123.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, "assets", "index-abc123.js"), 'console.log("console");\n');
  writeFileSync(join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  return dir;
}

export interface ConsoleGateway {
  url: string;
  pg: TestDatabase;
  service: GatewayService;
  fake: FakeService;
  call(method: string, path: string, opts?: GatewayCall): ReturnType<typeof callGateway>;
  newBusiness(name: string): Promise<{ businessId: string; testKey: string }>;
  stop(): Promise<void>;
}

/** `inProcess`: the fake service is handed requests in this process (as in the all-in-one), else reached over HTTP. */
export async function startConsoleGateway(
  opts: { inProcess?: boolean } & Partial<
    Pick<GatewayDeps, "consoleDir" | "consoleStream" | "rateLimits" | "trustProxy">
  > = {},
): Promise<ConsoleGateway> {
  const logger = createLogger("api-gateway", "silent");
  const pg = await createTestDatabase();
  const bus = createMemoryBus({ logger });
  const fake = fakeService();
  const fakeHttp: Listening | undefined = opts.inProcess ? undefined : await listen(fake.app, 0);
  const target = fakeHttp?.url ?? fake.app;
  const service = await createService({
    db: pg.db,
    bus,
    logger,
    metrics: createMetrics("api-gateway", false),
    internalToken: INTERNAL,
    operatorToken: OPERATOR,
    secretsKey: newDataKey(),
    upstreams: Object.fromEntries(UPSTREAMS.map((u) => [u, target])) as Record<Upstream, typeof target>,
    consoleDir: opts.consoleDir,
    consoleStream: opts.consoleStream,
    rateLimits: opts.rateLimits,
    trustProxy: opts.trustProxy,
  });
  await service.start();
  const http = await listen(service.app, 0);
  const call = (method: string, path: string, callOpts?: GatewayCall) => callGateway(http.url, method, path, callOpts);
  return {
    url: http.url,
    pg,
    service,
    fake,
    call,
    async newBusiness(name) {
      const res = await call("POST", "/admin/businesses", {
        headers: { "x-operator-token": OPERATOR },
        body: { name, webhookUrl: "http://127.0.0.1:4000/hook" },
      });
      if (res.status !== 201) throw new Error(`creating business ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      return { businessId: res.body.data.business.id, testKey: res.body.data.testKey };
    },
    async stop() {
      await http.close();
      await service.stop();
      await fakeHttp?.close();
      await bus.stop();
      await pg.stop();
    },
  };
}

/** The cookie pair (`cardhold_session=…`) of a Set-Cookie answer. */
export function sessionCookieOf(headers: Headers): string {
  const set = headers.get("set-cookie") ?? "";
  const pair = set.split(";")[0]!;
  if (!pair.startsWith("cardhold_session=")) throw new Error(`no session cookie in "${set}"`);
  return pair;
}

let addresses = 0;
/**
 * X-Forwarded-For of a client address not used before: sign-in is limited per address, and a gateway that trusts
 * its loopback proxy (trustProxy: "loopback") counts each test's sign-ins apart.
 */
export const newClientAddress = () => ({
  "x-forwarded-for": `10.0.${Math.floor(++addresses / 250)}.${addresses % 250}`,
});

/** Signs in with a key: the cookie pair, the CSRF token and the answer's body. */
export async function signIn(gateway: ConsoleGateway, key: string) {
  const res = await gateway.call("POST", "/console/api/session", { body: { key }, headers: newClientAddress() });
  if (res.status !== 201) throw new Error(`sign-in: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    cookie: sessionCookieOf(res.headers),
    csrf: res.body.csrfToken as string,
    body: res.body,
    headers: res.headers,
  };
}
