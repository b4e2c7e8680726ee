/**
 * The web console's side of the gateway (issue 22): its page and assets, the session that stands for a secret key,
 * the live stream, and the key management it offers (GET, POST /api-keys, DELETE /api-keys/{id}).
 */
import type { Express } from "express";
import type { Logger } from "pino";
import type { Db } from "@cardhold/db";
import type { BusinessUseCases } from "../businesses";
import { apiKeysRoutes } from "./api-keys-routes";
import { findConsoleDir } from "./console-dir";
import { consoleSessions } from "./console-sessions";
import { sessionCaller } from "./session-authentication";
import { sessionRoutes } from "./session-routes";
import { createSignInLimit } from "./sign-in-limit";
import { consoleStaticRoutes } from "./static-routes";
import { streamRoutes, type StreamOptions } from "./stream-routes";

export interface ConsoleDeps {
  db: Db;
  logger: Logger;
  businesses: BusinessUseCases;
  proxy: StreamOptions["proxy"];
  /** The built app (apps/console/dist); found from the repository when undefined. */
  consoleDir?: string;
  /** The live stream's timings (tests). */
  stream?: Partial<Pick<StreamOptions, "pollMs" | "keepAliveMs" | "maxPerSession">>;
}

export function createConsole(deps: ConsoleDeps) {
  const sessions = consoleSessions(deps.db, deps.businesses, deps.logger);
  const signInLimit = createSignInLimit();
  let streams: ReturnType<typeof streamRoutes> | undefined;

  return {
    /** For authenticate(): the session cookie in place of a key. */
    sessionCaller: sessionCaller(sessions),

    /** Before authentication: the session, the stream (both need the session, not a key) and the page. */
    routes(app: Express): void {
      sessionRoutes(app, sessions, signInLimit);
      streams = streamRoutes(app, { sessions, proxy: deps.proxy, logger: deps.logger, ...deps.stream });
      consoleStaticRoutes(app, deps.consoleDir ?? findConsoleDir());
    },

    /** Public API routes, after authentication, rate limits, the request log and permissions. */
    apiRoutes(app: Express): void {
      apiKeysRoutes(app, deps.db, deps.businesses);
    },

    /** Ends the open streams. */
    stop(): void {
      streams?.closeAll();
    },
  };
}
