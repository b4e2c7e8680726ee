import type { Logger } from "pino";
import { Counter, type Registry } from "prom-client";
import { Agent, request } from "undici";
import { DECISION_ANSWERS_PATH, type DecisionAnsweredMessage } from "@cardhold/contracts";
import { IDLE_CONNECTION_MS, INTERNAL_HEADERS } from "@cardhold/platform";

/**
 * How long the engine has to take a posted answer. Its transaction takes milliseconds; an engine that does not answer
 * in this time is busy or gone, and the answer goes on decisions.v1 instead (a repeat there changes nothing).
 */
export const RETURN_TIMEOUT_MS = 1_000;
const WARN_EVERY_MS = 10_000;

export interface AnswerReturn {
  /** Posts the answer to the engine that asked; whether it took it (false: publish it on decisions.v1). */
  post(answerTo: string, message: DecisionAnsweredMessage): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The receiver's answer straight back to the engine process that asked (the decision event's `answerTo`), where the
 * request waits on it: one HTTP exchange instead of an outbox row, a Kafka produce and the engine's fetch, and the
 * answer reaches the waiting request itself rather than whichever engine consumes its partition (another engine's
 * decision reaches a waiting request only by its 100 ms poll).
 */
export function createAnswerReturn(internalToken: string, logger: Logger, registry: Registry): AnswerReturn {
  /** Made at the first post (a service may be stopped more than once, and started again). */
  let agent: Agent | undefined;
  const connections = () =>
    (agent ??= new Agent({
      keepAliveTimeout: IDLE_CONNECTION_MS,
      keepAliveMaxTimeout: IDLE_CONNECTION_MS,
      connect: { timeout: RETURN_TIMEOUT_MS },
    }));
  const returned = new Counter({
    name: "decision_answers_returned_total",
    help: "Receivers' answers posted straight back to the engine that asked (outcome=taken), or published on decisions.v1 because that failed (outcome=fallback)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  /** One line per engine address every WARN_EVERY_MS at most: an engine that stays away must not flood the log. */
  const warnedAt = new Map<string, number>();
  const warn = (answerTo: string, why: string) => {
    const now = Date.now();
    if (now - (warnedAt.get(answerTo) ?? 0) < WARN_EVERY_MS) return;
    warnedAt.set(answerTo, now);
    logger.warn({ why, answerTo }, "answer not posted to the engine that asked; it goes on decisions.v1");
  };
  return {
    async post(answerTo, message) {
      try {
        const answer = await request(`${answerTo.replace(/\/+$/, "")}${DECISION_ANSWERS_PATH}`, {
          method: "POST",
          dispatcher: connections(),
          headers: { "content-type": "application/json", [INTERNAL_HEADERS.token]: internalToken },
          body: JSON.stringify(message),
          headersTimeout: RETURN_TIMEOUT_MS,
          bodyTimeout: RETURN_TIMEOUT_MS,
        });
        await answer.body.dump();
        if (answer.statusCode === 200) {
          returned.inc({ outcome: "taken" });
          return true;
        }
        warn(answerTo, `engine answered ${answer.statusCode}`);
      } catch (err) {
        // The engine restarting, or busy past the time limit: the answer takes the Kafka way, a hop later.
        warn(answerTo, err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err));
      }
      returned.inc({ outcome: "fallback" });
      return false;
    },
    async close() {
      const open = agent;
      agent = undefined;
      await open?.close();
    },
  };
}
