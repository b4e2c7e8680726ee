import type { Server } from "node:http";
import type { Express } from "express";
import type { Logger } from "pino";
import { createAppServer } from "./request-classes";

/** What every service's createService returns; both the distributed main and the all-in-one runner use it. */
export interface Service {
  name: string;
  app: Express;
  /** Start consumers and background workers (the HTTP listener is started by the caller). */
  start(): Promise<void>;
  /** Stop consuming, finish in-flight work, release resources. */
  stop(): Promise<void>;
}

export interface Listening {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * How long an idle keep-alive connection is kept open. Longer than a load balancer's own idle timeout (60 s is the
 * usual default, AWS ALB's among them): the balancer, not this server, closes an idle connection, so it never sends
 * a request on one this server is closing at that moment (Node's default of 5 s makes that race common, and the
 * balancer answers 502 for a request the platform never saw).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * How long one service keeps an idle connection to another (the gateway's proxy, the dispatcher's answers back to the
 * engine), well below the KEEP_ALIVE_TIMEOUT_MS the other side advertises. undici would keep it for the advertised time
 * less 2 s, counted by a clock that falls behind real time while the event loop is busy: a busy client then sends a
 * request on a connection the service is closing, and it fails.
 */
export const IDLE_CONNECTION_MS = 30_000;

export function listen(app: Express, port: number, host = "127.0.0.1"): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = createAppServer(app).listen(port, host);
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // A request's headers must be allowed to arrive on a connection kept that long (Node requires headers > keep-alive).
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    server.once("error", reject);
    server.once("listening", () => {
      const address = server.address();
      const actualPort = typeof address === "object" && address ? address.port : port;
      resolve({
        server,
        port: actualPort,
        url: `http://${host}:${actualPort}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 2000).unref();
          }),
      });
    });
  });
}

/** Runs the closers in order on SIGTERM or SIGINT, then exits; a second signal exits at once. */
export function onShutdown(logger: Logger, closers: Array<() => Promise<void>>, timeoutMs = 15_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, "shutting down");
    const timer = setTimeout(() => {
      logger.error("shutdown timed out");
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    for (const close of closers) {
      await close().catch((err: unknown) => logger.error({ err }, "error during shutdown"));
    }
    logger.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
