import type { Request, Response } from "express";
import { Agent, request } from "undici";
import { AppError, INTERNAL_HEADERS, receivedAt } from "@cardhold/platform";
import type { Upstream } from "../routing";

export interface ProxyOptions {
  upstreams: Record<Upstream, string>;
  internalToken: string;
  timeoutMs?: number;
}

const PASSED_HEADERS = ["content-type", "accept", "idempotency-key", "user-agent"];

/** Forwards an authenticated request to the owning service with the trusted internal headers. */
export function createProxy(opts: ProxyOptions) {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    connections: 64,
    headersTimeout: opts.timeoutMs ?? 30_000,
    bodyTimeout: opts.timeoutMs ?? 30_000,
  });

  const forward = async (req: Request, res: Response, upstream: Upstream) => {
    const caller = req.caller!;
    const headers: Record<string, string> = {
      [INTERNAL_HEADERS.token]: opts.internalToken,
      [INTERNAL_HEADERS.businessId]: caller.businessId,
      [INTERNAL_HEADERS.mode]: caller.mode,
      [INTERNAL_HEADERS.keyId]: caller.keyId,
      [INTERNAL_HEADERS.requestId]: req.requestId,
      [INTERNAL_HEADERS.receivedAt]: String(receivedAt(req)),
    };
    for (const name of PASSED_HEADERS) {
      const value = req.header(name);
      if (value) headers[name] = value;
    }
    const hasBody = req.rawBody !== undefined && req.method !== "GET" && req.method !== "HEAD";
    if (hasBody) headers["content-type"] = "application/json";
    let answer;
    try {
      answer = await request(opts.upstreams[upstream] + req.originalUrl, {
        method: req.method as "GET",
        headers,
        body: hasBody ? req.rawBody : undefined,
        dispatcher: agent,
      });
    } catch (error) {
      req.log.warn({ err: error, upstream }, "upstream unreachable");
      throw new AppError(503, "service-unavailable", `${upstream} is unavailable, try again shortly`);
    }
    const body = Buffer.from(await answer.body.arrayBuffer());
    const contentType = answer.headers["content-type"];
    res.status(answer.statusCode);
    if (typeof contentType === "string") res.type(contentType);
    res.loggedBody = body;
    res.send(body);
  };

  return { forward, close: () => agent.close() };
}
