import type { Logger } from "pino";
import { Counter, type Registry } from "prom-client";
import { Agent, request } from "undici";
import type { DirectLane, OutboxRow } from "@cardhold/bus";
import { EVENTS_INTAKE_PATH, TOPICS } from "@cardhold/contracts";
import { IDLE_CONNECTION_MS, INTERNAL_HEADERS } from "@cardhold/platform";

/**
 * How long a dispatcher has to store a post. Its statement takes milliseconds; past this the rows go on events.v1
 * (a repeat there changes nothing), and the relay, which waits for the post before its next step, moves on.
 */
export const POST_TIMEOUT_MS = 500;
const WARN_EVERY_MS = 10_000;

export interface DispatcherLane extends DirectLane {
  close(): Promise<void>;
}

/**
 * The engine's events straight to a dispatcher (`EVENT_DISPATCHER_URL`, any instance or a balancer in front of
 * them): one HTTP exchange instead of a Kafka produce, the broker, the dispatcher's fetch and its offset commit. The
 * outbox relay decides which rows may take it (an authorization's question opens its key, and its closing follows).
 */
export function createDispatcherLane(
  dispatcherUrl: string,
  internalToken: string,
  logger: Logger,
  registry: Registry,
): DispatcherLane {
  const url = `${dispatcherUrl.replace(/\/+$/, "")}${EVENTS_INTAKE_PATH}`;
  let agent: Agent | undefined;
  const connections = () =>
    (agent ??= new Agent({
      keepAliveTimeout: IDLE_CONNECTION_MS,
      keepAliveMaxTimeout: IDLE_CONNECTION_MS,
      connect: { timeout: POST_TIMEOUT_MS },
    }));
  const posted = new Counter({
    name: "events_posted_to_dispatcher_total",
    help: "events.v1 messages posted straight to a dispatcher (outcome=taken), or sent on events.v1 because the post failed (outcome=fallback)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  let warnedAt = 0;
  const warn = (why: string) => {
    if (Date.now() - warnedAt < WARN_EVERY_MS) return;
    warnedAt = Date.now();
    logger.warn({ why, dispatcherUrl }, "events not posted to the dispatcher; they go on events.v1");
  };
  return {
    topic: TOPICS.events,
    async post(rows) {
      try {
        const answer = await request(url, {
          method: "POST",
          dispatcher: connections(),
          headers: { "content-type": "application/json", [INTERNAL_HEADERS.token]: internalToken },
          body: postedBody(rows),
          headersTimeout: POST_TIMEOUT_MS,
          bodyTimeout: POST_TIMEOUT_MS,
        });
        await answer.body.dump();
        if (answer.statusCode === 200) {
          posted.inc({ outcome: "taken" }, rows.length);
          return true;
        }
        warn(`dispatcher answered ${answer.statusCode}`);
      } catch (err) {
        warn(err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err));
      }
      posted.inc({ outcome: "fallback" }, rows.length);
      return false;
    },
    async close() {
      const open = agent;
      agent = undefined;
      await open?.close();
    },
  };
}

/** The rows as the intake reads them, each value's JSON embedded as the outbox holds it (not parsed and written again). */
export function postedBody(rows: OutboxRow[]): string {
  const items = rows.map(
    (r) =>
      `{"id":${JSON.stringify(r.id)},"key":${JSON.stringify(r.key)},"value":${r.value ?? "null"},"headers":${JSON.stringify(r.headers)}}`,
  );
  return `[${items.join(",")}]`;
}
