import type { IncomingHttpHeaders } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Registry } from "prom-client";
import { Agent, request } from "undici";
import { AppError, IDLE_CONNECTION_MS, INTERNAL_HEADERS, REPLAYED_HEADER } from "@cardhold/platform";
import type { Upstream } from "../routing";
import { captureInProcess } from "./in-process-answer";
import { networkAdmission } from "./network-admission";

/**
 * A service in this process (the all-in-one): its own Express app, handed the request without a socket. It runs the
 * same middleware as behind HTTP (internal token, body limits, error model); only the loopback hop is gone.
 */
export type InProcessUpstream = (req: Request, res: Response, done: NextFunction) => void;

/** Where a service is reached: its internal HTTP address, or its app in this process. */
export type UpstreamTarget = string | InProcessUpstream;

/** An owning service's answer, held before it is sent (a delayed request's, src/delayed-requests.ts). */
export interface UpstreamAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

export interface ProxyOptions {
  upstreams: Record<Upstream, UpstreamTarget>;
  internalToken: string;
  timeoutMs?: number;
  /** How long an idle connection to a service is kept, whatever the service advertises (default 30 s). */
  idleConnectionMs?: number;
  /** Where the gateway's own counters go (gateway_network_requests_shed_total). */
  registry?: Registry;
}

/** Connections to each service over HTTP (an earlier session measured 256: a 3× overload answered later). */
const CONNECTIONS_PER_SERVICE = 64;

const PASSED_HEADERS = ["content-type", "accept", "idempotency-key", "user-agent"];

/**
 * The owning service's answer headers a client reads (the rest are the gateway's own): a replay, when to retry, a
 * download's file name, and that a card's secrets must not be cached.
 */
const ANSWER_HEADERS = [REPLAYED_HEADER, "retry-after", "content-disposition", "cache-control", "x-request-id"];

/** What the owning service is told: the trusted internal headers and the few client headers it reads. */
function upstreamHeaders(req: Request, internalToken: string): Record<string, string> {
  const caller = req.caller!;
  const headers: Record<string, string> = {
    [INTERNAL_HEADERS.token]: internalToken,
    [INTERNAL_HEADERS.businessId]: caller.businessId,
    [INTERNAL_HEADERS.mode]: caller.mode,
    [INTERNAL_HEADERS.keyId]: caller.keyId,
    [INTERNAL_HEADERS.requestId]: req.requestId,
    // The gateway's own clock: a client's x-received-at would move its authorization's deadline.
    [INTERNAL_HEADERS.receivedAt]: String(req.receivedAt),
  };
  for (const name of PASSED_HEADERS) {
    const value = req.header(name);
    if (value) headers[name] = value;
  }
  if (hasBody(req)) headers["content-type"] = "application/json";
  return headers;
}

const hasBody = (req: Request) => req.rawBody !== undefined && req.method !== "GET" && req.method !== "HEAD";

/** Forwards an authenticated request to the owning service with the trusted internal headers. */
export function createProxy(opts: ProxyOptions) {
  const idleConnectionMs = opts.idleConnectionMs ?? IDLE_CONNECTION_MS;
  const agent = new Agent({
    keepAliveTimeout: idleConnectionMs,
    keepAliveMaxTimeout: idleConnectionMs,
    connections: CONNECTIONS_PER_SERVICE,
    headersTimeout: opts.timeoutMs ?? 30_000,
    bodyTimeout: opts.timeoutMs ?? 30_000,
  });

  const admitted = networkAdmission(opts.registry, CONNECTIONS_PER_SERVICE);

  const fetchOverHttp = (req: Request, upstream: Upstream, url: string): Promise<UpstreamAnswer> =>
    admitted(req, () => exchange(req, upstream, url));

  const exchange = async (req: Request, upstream: Upstream, url: string): Promise<UpstreamAnswer> => {
    let answer;
    try {
      answer = await request(url + req.originalUrl, {
        method: req.method as "GET",
        headers: upstreamHeaders(req, opts.internalToken),
        body: hasBody(req) ? req.rawBody : undefined,
        dispatcher: agent,
      });
    } catch (error) {
      req.log.warn({ err: error, upstream }, "upstream unreachable");
      throw new AppError(503, "service-unavailable", `${upstream} is unavailable, try again shortly`);
    }
    const body = Buffer.from(await answer.body.arrayBuffer());
    return { statusCode: answer.statusCode, headers: answer.headers, body };
  };

  const send = (res: Response, answer: UpstreamAnswer) => {
    const contentType = answer.headers["content-type"];
    res.status(answer.statusCode);
    if (typeof contentType === "string") res.type(contentType);
    for (const name of ANSWER_HEADERS) {
      const value = answer.headers[name];
      if (value !== undefined) res.setHeader(name, value);
    }
    res.loggedBody = answer.body;
    res.send(answer.body);
  };

  /**
   * The request object goes on to the service as its own: its headers are replaced by exactly what HTTP would carry
   * (so a client's x-internal-* header never reaches the service), and the body the gateway already read stays parsed
   * (the service's body parser skips a request whose body was read).
   */
  const inProcess = (req: Request, res: Response, next: NextFunction, app: InProcessUpstream) => {
    req.headers = upstreamHeaders(req, opts.internalToken) as IncomingHttpHeaders;
    const send = res.send;
    res.send = function sendAndKeep(this: Response, body?: unknown) {
      res.loggedBody = body;
      return send.call(this, body);
    };
    app(req, res, next);
  };

  const forward = async (req: Request, res: Response, next: NextFunction, upstream: Upstream) => {
    const target = opts.upstreams[upstream];
    if (typeof target === "string") send(res, await fetchOverHttp(req, upstream, target));
    else inProcess(req, res, next, target);
  };

  /** The owning service's answer as a value, for the caller to send (or to keep, when it answered 202 meanwhile). */
  const answerOf = async (req: Request, upstream: Upstream): Promise<UpstreamAnswer> => {
    const target = opts.upstreams[upstream];
    if (typeof target === "string") return fetchOverHttp(req, upstream, target);
    req.headers = upstreamHeaders(req, opts.internalToken) as IncomingHttpHeaders;
    return captureInProcess(req, target);
  };

  return { forward, answerOf, send, close: () => agent.close() };
}
