import type { Logger } from "pino";
import { newId } from "./ids";

let installed = false;

/**
 * The process-wide net under every request and consumer: an error that escapes its handler (a throw in an event
 * listener, a rejected promise nobody awaited) is logged with an error id and counted, and the process keeps
 * serving. One tenant's bad request must never end the service for every tenant; what was in flight is recovered
 * by the outbox, the claims and the deadlines, which do not depend on the process surviving either.
 */
export function installLastResortHandlers(logger: Logger): void {
  if (installed) return;
  installed = true;
  const report = (kind: string) => (err: unknown) => {
    const errorId = newId("request").replace("req.", "err.");
    lastResortErrors += 1;
    logger.error({ err, errorId, kind }, "error escaped its handler; the process keeps running");
  };
  process.on("uncaughtException", report("uncaught-exception"));
  process.on("unhandledRejection", report("unhandled-rejection"));
}

let lastResortErrors = 0;

/** How many errors the last-resort handlers caught in this process (for tests and metrics). */
export function lastResortErrorCount(): number {
  return lastResortErrors;
}
