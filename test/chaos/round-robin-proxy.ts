import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { endToEndHeaders, listenOnFreePort } from "./forwarding-hop";
import { LOAD_TAG_HEADER } from "../support/crash-load";

export interface RoundRobinProxy {
  url: string;
  /** Requests an upstream held longer than `SLOW_EXCHANGE_MS` (answered late, or still waiting), for a run's report. */
  slowExchanges(): SlowExchange[];
  /** What became of the request that carried this LOAD_TAG_HEADER, or undefined if it never arrived. */
  traceOf(tag: string): RequestTrace | undefined;
  close(): Promise<void>;
}

/** A tagged request's way through the balancer, in ms since the epoch. */
export interface RequestTrace {
  arrivedAt: number;
  /** The client's port, and when the balancer accepted that connection. */
  clientPort?: number;
  connectedAt?: number;
  /** Each upstream tried, when, and how that attempt ended (and when). */
  attempts: Array<{ upstream: string; at: number; ended?: AttemptEnd; endedAt?: number }>;
  /** When the client's connection closed or its answer was fully written. */
  closedAt?: number;
}

export interface SlowExchange {
  upstream: string;
  method: string;
  path: string;
  /** When the balancer received the request (ms since the epoch). */
  receivedAt: number;
  /** How long the upstream held it, or has held it so far. */
  ms: number;
  outcome: AttemptEnd | "still waiting";
}

/** How an attempt on one upstream ended: refused (tried on the next one), answered, or cut off once it had begun. */
type AttemptEnd = "answered" | "refused" | "cut off";

/** How long a client's idle connection is kept open: longer than the load's own limit (crash-load.ts). */
const CLIENT_IDLE_LIMIT_MS = 660_000;

/** A request held longer than this by an upstream is remembered (a client gives up at 30 s). */
export const SLOW_EXCHANGE_MS = 20_000;

/** How long an upstream that refused a connection is passed over. */
const REFUSED_PAUSE_MS = 500;

/**
 * The load balancer of the chaos run (what nginx or an ALB does in front of several instances): each request goes to
 * the next upstream in turn; one that refuses the connection (a stopped instance) is passed over and the request
 * tried on the next, which is safe because the refused one never saw it. A request cut off after it reached an
 * upstream answers 502, as a real balancer's does.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  // An idle connection is dropped here after 30 s, before the gateway's 65 s (KEEP_ALIVE_TIMEOUT_MS), as a real
  // balancer's idle timeout is set below its upstreams': a request is never sent on a connection being closed.
  const agent = new Agent({ keepAlive: true, maxSockets: 512, timeout: 30_000 });
  const refusedUntil = new Map<string, number>();
  let turn = 0;
  const slow: SlowExchange[] = [];
  const waiting = new Set<Omit<SlowExchange, "ms" | "outcome">>();
  const traces = new Map<string, RequestTrace>();
  const acceptedAt = new WeakMap<Socket, number>();
  const timed = (upstream: string, req: IncomingMessage) => {
    const exchange = { upstream, method: req.method ?? "", path: req.url ?? "", receivedAt: Date.now() };
    const attempt: RequestTrace["attempts"][number] = { upstream, at: exchange.receivedAt };
    traceOf(req)?.attempts.push(attempt);
    waiting.add(exchange);
    return (outcome: AttemptEnd) => {
      if (!waiting.delete(exchange)) return;
      attempt.ended = outcome;
      attempt.endedAt = Date.now();
      const ms = Date.now() - exchange.receivedAt;
      if (ms > SLOW_EXCHANGE_MS) slow.push({ ...exchange, ms, outcome });
    };
  };

  const order = () => {
    const start = turn++ % upstreams.length;
    const rotated = [...upstreams.slice(start), ...upstreams.slice(0, start)];
    const now = Date.now();
    return [
      ...rotated.filter((u) => (refusedUntil.get(u) ?? 0) <= now),
      ...rotated.filter((u) => (refusedUntil.get(u) ?? 0) > now),
    ];
  };

  const forward = (upstream: string, req: IncomingMessage, body: Buffer, res: ServerResponse) =>
    new Promise<"done" | "refused">((resolve) => {
      const ended = timed(upstream, req);
      const headers = endToEndHeaders(req.headers);
      const out = request(upstream + req.url, { method: req.method, headers, agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEndHeaders(answer.headers));
        answer.pipe(res);
        answer.on("end", () => {
          ended("answered");
          resolve("done");
        });
        answer.on("error", () => {
          ended("cut off");
          res.destroy();
          resolve("done");
        });
      });
      out.on("error", (error: NodeJS.ErrnoException) => {
        const refused = error.code === "ECONNREFUSED" && !res.headersSent;
        ended(refused ? "refused" : "cut off");
        if (refused) return resolve("refused");
        if (!res.headersSent)
          res
            .writeHead(502, { "content-type": "application/json" })
            .end('{"statusCode":502,"code":"upstream-cut-off","message":"upstream cut off"}');
        else res.destroy();
        resolve("done");
      });
      out.end(body);
    });

  const traceOf = (req: IncomingMessage) => {
    const tag = req.headers[LOAD_TAG_HEADER];
    return typeof tag === "string" ? traces.get(tag) : undefined;
  };

  const server = createServer((req, res) => {
    const tag = req.headers[LOAD_TAG_HEADER];
    if (typeof tag === "string") {
      const trace: RequestTrace = {
        arrivedAt: Date.now(),
        clientPort: req.socket.remotePort,
        connectedAt: acceptedAt.get(req.socket),
        attempts: [],
      };
      traces.set(tag, trace);
      res.on("close", () => (trace.closedAt = Date.now()));
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on(
      "end",
      () =>
        void (async () => {
          const body = Buffer.concat(chunks);
          for (const upstream of order()) {
            if ((await forward(upstream, req, body, res)) === "done") return;
            refusedUntil.set(upstream, Date.now() + REFUSED_PAUSE_MS);
          }
          res
            .writeHead(503, { "content-type": "application/json" })
            .end('{"statusCode":503,"code":"no-upstream","message":"no upstream is up"}');
        })(),
    );
  });
  server.on("connection", (socket: Socket) => acceptedAt.set(socket, Date.now()));
  // Longer than any client here keeps an idle connection (the load's 10 minutes, the gateway's 30 s): the client
  // always closes first, so no request is sent on a connection this side is closing.
  server.keepAliveTimeout = CLIENT_IDLE_LIMIT_MS;
  const port = await listenOnFreePort(server);
  return {
    url: `http://127.0.0.1:${port}`,
    traceOf: (tag) => traces.get(tag),
    slowExchanges: () => [
      ...slow,
      ...[...waiting].flatMap((exchange) => {
        const ms = Date.now() - exchange.receivedAt;
        return ms > SLOW_EXCHANGE_MS ? [{ ...exchange, ms, outcome: "still waiting" as const }] : [];
      }),
    ],
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A trace with its times as ms from when the client sent the request, for a report line. */
export function traceFromSending(
  request: { op: string; sentAt: number; outcome: unknown; cause?: string },
  trace: RequestTrace | undefined,
  client: { createdAt?: number; headersSentAt?: number; port?: number } = {},
) {
  const from = (at: number | undefined) => (at === undefined ? undefined : at - request.sentAt);
  return {
    op: request.op,
    outcome: request.outcome,
    cause: request.cause,
    pooled: from(client.createdAt),
    onConnection: from(client.headersSentAt),
    port: client.port,
    balancerPort: trace?.clientPort,
    connectedAt: from(trace?.connectedAt),
    arrived: trace ? from(trace.arrivedAt) : "never",
    attempts: trace?.attempts.map((a) => ({
      upstream: a.upstream.replace(/^.*:/, ":"),
      at: from(a.at),
      ended: a.ended,
      endedAt: from(a.endedAt),
    })),
    closed: from(trace?.closedAt),
  };
}
