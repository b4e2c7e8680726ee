import express from "express";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import { createLogger, createMetrics, listen, newDataKey, type Listening } from "@cardhold/platform";
import { UPSTREAMS, type Upstream } from "../src/routing";
import { createService, type GatewayService, type RateLimits } from "../src/service";
import { callGateway, type GatewayCall } from "../../../test/support/api-client";

export const INTERNAL = "internal-token-for-gateway-tests";
export const OPERATOR = "operator-token-for-gateway-tests";

/** What the services behind the gateway were asked. */
export interface Forwarded {
  method: string;
  url: string;
  keyId: string | undefined;
  /** x-received-at: when the gateway says the request reached it. */
  receivedAt: string | undefined;
}

export interface Gateway {
  service: GatewayService;
  url: string;
}

export interface Harness {
  pg: TestDatabase;
  /** The SQL text of every statement the gateways sent. */
  statements: string[];
  bus: MemoryBus;
  /** Two gateway instances on one database, as in the distributed mode. */
  gateways: [Gateway, Gateway];
  forwarded: Forwarded[];
  stop(): Promise<void>;
}

/**
 * One stand-in for every service behind the gateway: records what reached it and answers 200 (201 for a POST);
 * `GET /cards/:id/secrets` answers a made-up PAN and CVV (not to be cached), `…/logs/csv` a download, and
 * `POST /events/evt.busy/retry` a 409 with Retry-After. Any request with `?delayMs=N` answers N ms late (its data
 * says so), and with `?status=4xx|5xx` answers that status with an error body.
 */
function fakeUpstream(forwarded: Forwarded[]) {
  const app = express();
  app.use(async (req, _res, next) => {
    const delayMs = Number(req.query.delayMs ?? 0);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    next();
  });
  app.use((req, res) => {
    forwarded.push({
      method: req.method,
      url: req.originalUrl,
      keyId: req.header("x-key-id"),
      receivedAt: req.header("x-received-at"),
    });
    const status = Number(req.query.status ?? 0);
    if (status >= 400) {
      res.status(status).json({ statusCode: status, code: "made-to-fail", message: `answered ${status} on request` });
      return;
    }
    if (req.query.delayMs) {
      res
        .status(req.method === "POST" ? 201 : 200)
        .json({ code: "success", data: { delayedMs: Number(req.query.delayMs) } });
      return;
    }
    if (/^\/cards\/[^/]+\/secrets$/i.test(req.path)) {
      res.set("cache-control", "no-store").json({ code: "success", data: { pan: "5061000000000001", cvv: "123" } });
      return;
    }
    if (req.path.endsWith("/logs/csv")) {
      res.type("text/csv").attachment("ac.1-log.csv").send("id\n");
      return;
    }
    if (req.path === "/events/evt.busy/retry") {
      res.status(409).set("retry-after", "7").json({ code: "idempotency-key-in-progress" });
      return;
    }
    res.status(req.method === "POST" ? 201 : 200).json({ code: "success", data: {} });
  });
  return app;
}

/** The gateway in-process twice over one embedded-Postgres database, in front of a fake upstream. */
export async function startHarness(
  options: { rateLimits?: RateLimits; delayedRequestAfterMs?: number } = {},
): Promise<Harness> {
  const logger = createLogger("api-gateway", "silent");
  const pg = await createTestDatabase();
  const statements: string[] = [];
  const db = new Proxy(pg.db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== "query" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (typeof args[0] === "string") statements.push(args[0]);
        return Reflect.apply(value, target, args);
      };
    },
  });
  const bus: MemoryBus = createMemoryBus({ logger });
  const forwarded: Forwarded[] = [];
  const upstream = await listen(fakeUpstream(forwarded), 0);
  const upstreams = Object.fromEntries(UPSTREAMS.map((u) => [u, upstream.url])) as Record<Upstream, string>;
  const listening: Listening[] = [];
  const start = async (): Promise<Gateway> => {
    const service = await createService({
      db,
      bus,
      logger,
      metrics: createMetrics("api-gateway", false),
      internalToken: INTERNAL,
      operatorToken: OPERATOR,
      upstreams,
      secretsKey: newDataKey(),
      rateLimits: options.rateLimits,
      delayedRequestAfterMs: options.delayedRequestAfterMs,
    });
    await service.start();
    const http = await listen(service.app, 0);
    listening.push(http);
    return { service, url: http.url };
  };
  const first = await start();
  const second = await start();
  return {
    pg,
    bus,
    statements,
    gateways: [first, second],
    forwarded,
    async stop() {
      for (const http of listening) await http.close();
      await first.service.stop();
      await second.service.stop();
      await upstream.close();
      await bus.stop();
      await pg.stop();
    },
  };
}

/** A request to the first gateway, or to the one `opts.gateway` names. */
export function gatewayCaller(h: () => Harness) {
  return (method: string, path: string, opts: GatewayCall & { gateway?: string } = {}) =>
    callGateway(opts.gateway ?? h().gateways[0]!.url, method, path, opts);
}

/** A new business through the operator's admin API: its record and its test key. */
export async function newBusiness(h: Harness, name: string) {
  const res = await callGateway(h.gateways[0]!.url, "POST", "/admin/businesses", {
    headers: { "x-operator-token": OPERATOR },
    body: { name, webhookUrl: "http://127.0.0.1:4000/hook" },
  });
  if (res.status !== 201) throw new Error(`creating business ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { business: { id: string }; testKey: string };
}
