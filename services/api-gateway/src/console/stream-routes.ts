/**
 * GET /console/api/stream/card-authorizations: server-sent events of every new or changed authorization matching the
 * client's filter, found by reading the public list on the session's behalf about once a second.
 */
import type { Express, Response } from "express";
import type { Logger } from "pino";
import { z } from "zod";
import { AppError, forbidden, validate } from "@cardhold/platform";
import type { Caller } from "../api-keys";
import { missingPermission } from "../domain/permissions";
import type { UpstreamAnswer } from "../http/proxy";
import type { Upstream } from "../routing";
import { createAuthorizationFeed, type ListPage } from "./authorization-feed";
import { sessionIdOf } from "./cookies";
import type { ConsoleSession, ConsoleSessions } from "./console-sessions";
import { internalGet } from "./internal-request";

export const streamQuerySchema = z.object({
  filter: z
    .string()
    .max(2_000)
    .optional()
    .describe("The list query language's filter, as for GET /card-authorizations"),
});

export interface StreamOptions {
  sessions: ConsoleSessions;
  proxy: { answerOf(req: ReturnType<typeof internalGet>, upstream: Upstream): Promise<UpstreamAnswer> };
  logger: Logger;
  pollMs?: number;
  keepAliveMs?: number;
  /** Open streams per session on this gateway instance; one more is a 429. */
  maxPerSession?: number;
}

export const STREAM_DEFAULTS = { pollMs: 1_000, keepAliveMs: 15_000, maxPerSession: 5 };

const LIST_PATH = "/card-authorizations";

function parseAnswer(answer: UpstreamAnswer): unknown {
  try {
    return JSON.parse(answer.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** A page of the list, or the engine's refusal as our own error (a bad filter is the client's 400). */
function pageOf(answer: UpstreamAnswer): ListPage {
  const body = parseAnswer(answer) as
    { data?: ListPage["data"]; metadata?: { hasMore?: boolean }; code?: string; message?: string } | undefined;
  if (answer.statusCode === 200 && Array.isArray(body?.data)) {
    return { data: body.data, hasMore: body.metadata?.hasMore === true };
  }
  const status = answer.statusCode >= 400 && answer.statusCode < 500 ? answer.statusCode : 503;
  throw new AppError(status, body?.code ?? "upstream-error", body?.message ?? "The authorizations could not be read");
}

/** The session ended (expired, signed out, its key revoked): the stream ends; anything else is tried again. */
const isSessionRefusal = (error: unknown): error is AppError => error instanceof AppError && error.statusCode === 401;

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function streamRoutes(app: Express, opts: StreamOptions) {
  const pollMs = opts.pollMs ?? STREAM_DEFAULTS.pollMs;
  const keepAliveMs = opts.keepAliveMs ?? STREAM_DEFAULTS.keepAliveMs;
  const maxPerSession = opts.maxPerSession ?? STREAM_DEFAULTS.maxPerSession;
  const openBySession = new Map<string, number>();
  const closers = new Set<() => void>();

  const reserve = (idHash: string) => {
    const open = openBySession.get(idHash) ?? 0;
    if (open >= maxPerSession) {
      throw new AppError(429, "rate-limited", `At most ${maxPerSession} live streams per console session`);
    }
    openBySession.set(idHash, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (openBySession.get(idHash) ?? 1) - 1;
      if (left > 0) openBySession.set(idHash, left);
      else openBySession.delete(idHash);
    };
  };

  const readPage = (caller: Caller) => async (query: string) =>
    pageOf(
      await opts.proxy.answerOf(internalGet(`${LIST_PATH}?${query}`, caller, opts.logger), "authorization-engine"),
    );

  /** Polls until the client goes, the session ends or the gateway stops. */
  function run(
    res: Response,
    sessionId: string,
    session: ConsoleSession,
    feed: ReturnType<typeof createAuthorizationFeed>,
  ) {
    const read = readPage(session.caller);
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const keepAlive = setInterval(() => res.write(": keepalive\n\n"), keepAliveMs);
    const close = () => {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      clearInterval(keepAlive);
      closers.delete(close);
      res.end();
    };
    closers.add(close);
    res.on("close", close);

    const poll = async () => {
      try {
        await opts.sessions.find(sessionId);
        for (const record of await feed.poll(read)) {
          if (closed) return;
          res.write(frame("card-authorization", { code: "success", data: record }));
        }
      } catch (error) {
        if (isSessionRefusal(error)) {
          if (!closed) res.write(frame("session-ended", { message: error.message }));
          return close();
        }
        opts.logger.warn({ err: error }, "console stream: the authorizations could not be read");
      }
      if (!closed) timer = setTimeout(() => void poll(), pollMs);
    };
    timer = setTimeout(() => void poll(), pollMs);
    return close;
  }

  app.get("/console/api/stream/card-authorizations", async (req, res) => {
    const sessionId = sessionIdOf(req.header("cookie"));
    const session = await opts.sessions.find(sessionId);
    const missing = missingPermission(session.caller.permissions, "GET", LIST_PATH);
    if (missing) throw forbidden(`This API key lacks the '${missing}' permission needed for GET ${LIST_PATH}`);
    const { filter } = validate(streamQuerySchema, req.query, "query");
    const release = reserve(session.idHash);
    res.on("close", release);
    try {
      const feed = createAuthorizationFeed(filter);
      feed.open(await readPage(session.caller)(feed.openingQuery()));
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      });
      res.write("retry: 3000\n\n");
      run(res, sessionId!, session, feed);
    } catch (error) {
      release();
      throw error;
    }
  });

  return {
    /** Ends every open stream (the gateway is stopping). */
    closeAll: () => {
      for (const close of [...closers]) close();
    },
  };
}
