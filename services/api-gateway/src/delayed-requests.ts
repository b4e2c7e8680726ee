import type { Request, Response } from "express";
import type { Logger } from "pino";
import { enqueue, type OutboxRelay } from "@cardhold/bus";
import { TOPICS, type EventPublishedMessage, type Mode } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { AppError, newId, notFound } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import {
  INTERRUPTED_ANSWER,
  isDelayable,
  isOverdue,
  PROCESSING_DEADLINE_MS,
  statusOf,
  storedBody,
  type FinalAnswer,
} from "./domain/delayed-request";
import type { UpstreamAnswer } from "./http/proxy";
import type { Upstream } from "./routing";
import { SCHEMA } from "./store/businesses.store";
import {
  completeRequest,
  failOverdue,
  findRequest,
  insertProcessing,
  toRequestRecord,
  type DelayedRequestRow,
} from "./store/delayed-requests.store";

/** How often each gateway fails the requests a stopped gateway left processing (also once at start). */
const SWEEP_EVERY_MS = 60_000;

export interface DelayedRequestsDeps {
  db: Db;
  relay: Pick<OutboxRelay, "wake">;
  logger: Logger;
  proxy: {
    answerOf(req: Request, upstream: Upstream): Promise<UpstreamAnswer>;
    send(res: Response, answer: UpstreamAnswer): void;
  };
  /** DELAYED_REQUEST_AFTER_MS: how long a write is waited for before it is answered 202. */
  afterMs: number;
}

type Outcome = { answer: UpstreamAnswer } | { error: unknown };

const settle = (answer: Promise<UpstreamAnswer>): Promise<Outcome> =>
  answer.then(
    (a) => ({ answer: a }),
    (error: unknown) => ({ error }),
  );

/** The outcome if it comes within `ms`, else undefined. */
async function within<T>(outcome: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}

const newRequestOf = (req: Request) => ({
  businessId: req.caller!.businessId,
  mode: req.caller!.mode,
  id: req.requestId,
  apiKey: req.caller!.keyId,
  method: req.method,
  path: req.path,
});

/** events.v1: the request's record, to the business's webhooks (keyed by the request id). */
function completedEvent(row: DelayedRequestRow) {
  const eventId = newId("event");
  const sentAt = new Date().toISOString();
  const value: EventPublishedMessage = {
    type: "event.published",
    businessId: row.business_id,
    mode: row.mode as Mode,
    occurredAt: sentAt,
    data: {
      resourceId: row.id,
      envelope: { event: "request.completed", data: toRequestRecord(row), metadata: { sentAt, event: eventId } },
    },
  };
  return { topic: TOPICS.events, key: row.id, value, id: `msg.${eventId}` };
}

/**
 * Delayed requests (the original provider's "GRP", src/domain/delayed-request.ts): a write of a key with
 * `delayedRequests` on that is not answered within `afterMs` is answered 202 `request-accepted`; its answer is stored
 * when it comes (GET /requests/:id) and announced with a `request.completed` event. A request a stopped gateway left
 * processing is failed `request-interrupted` PROCESSING_DEADLINE_MS after it was made, by the sweep or when read.
 */
export function delayedRequests(deps: DelayedRequestsDeps) {
  const { db, logger } = deps;
  const waiting = new Set<Promise<void>>();
  let sweeper: NodeJS.Timeout | undefined;

  const finalAnswerOf = (outcome: Outcome, log: Logger): FinalAnswer => {
    if ("answer" in outcome) return { statusCode: outcome.answer.statusCode, body: storedBody(outcome.answer.body) };
    if (outcome.error instanceof AppError)
      return { statusCode: outcome.error.statusCode, body: outcome.error.toBody() };
    const errorId = newId("request").replace("req.", "err.");
    log.error({ err: outcome.error, errorId }, "delayed request failed");
    const body = { statusCode: 500, code: "internal-error", message: "Internal server error", errorId };
    return { statusCode: 500, body };
  };

  /** Stores the final answer and its event together; nothing when the request was failed as interrupted meanwhile. */
  const finish = async (row: DelayedRequestRow, outcome: Outcome, log: Logger) => {
    const final = finalAnswerOf(outcome, log);
    const key = { businessId: row.business_id, mode: row.mode, id: row.id };
    try {
      const done = await db.tx(async (tx) => {
        const completed = await completeRequest(tx, key, statusOf(final.statusCode), final);
        if (completed) await enqueue(tx, SCHEMA, [completedEvent(completed)]);
        return completed;
      });
      if (done) deps.relay.wake();
      else log.warn({ requestId: row.id }, "delayed request answered after it was failed as interrupted");
    } catch (err) {
      log.error({ err, requestId: row.id }, "delayed request's answer not stored; the sweep fails it as interrupted");
    }
  };

  const sendNow = (res: Response, outcome: Outcome) => {
    if ("error" in outcome) throw outcome.error;
    deps.proxy.send(res, outcome.answer);
  };

  const keepWaiting = (work: Promise<void>) => {
    waiting.add(work);
    void work.finally(() => waiting.delete(work));
  };

  /** Fails overdue processing requests (every one, or only the one named), each with its event. */
  const failInterrupted = async (only?: Scope & { id: string }): Promise<DelayedRequestRow[]> => {
    const failed = await db.tx(async (tx) => {
      const rows = await failOverdue(tx, PROCESSING_DEADLINE_MS, INTERRUPTED_ANSWER, only);
      await enqueue(tx, SCHEMA, rows.map(completedEvent));
      return rows;
    });
    if (failed.length > 0) {
      deps.relay.wake();
      logger.warn({ requests: failed.map((r) => r.id) }, "delayed requests failed as interrupted");
    }
    return failed;
  };

  const sweep = () =>
    void failInterrupted().catch((err: unknown) => logger.warn({ err }, "delayed requests sweep failed"));

  return {
    /** Whether this request may be answered 202: a write with a key that asked for it. */
    applies: (req: Request): boolean => req.caller?.delayedRequests === true && isDelayable(req.method),

    /** Forwards the request; answers as usual within `afterMs`, else 202 while the answer is still awaited. */
    async forward(req: Request, res: Response, upstream: Upstream): Promise<void> {
      const outcome = settle(deps.proxy.answerOf(req, upstream));
      const inTime = await within(outcome, deps.afterMs);
      const processing = inTime ? undefined : await insertProcessing(db, newRequestOf(req));
      // No row: answered in time, or an id the business already used (a client may choose its x-request-id).
      if (!processing) return sendNow(res, inTime ?? (await outcome));
      const accepted = { code: "request-accepted", data: toRequestRecord(processing) };
      res.loggedBody = accepted;
      res.status(202).json(accepted);
      keepWaiting(outcome.then((o) => finish(processing, o, req.log)));
    },

    /** The business's request in this mode; a request processing past the deadline is failed first. */
    async get(scope: Scope, id: string): Promise<Record<string, unknown>> {
      const key = { ...scope, id };
      let row = await findRequest(db, key);
      if (!row) throw notFound("Request", id);
      if (row.status === "processing" && isOverdue(row.created_at, Date.now())) {
        row = (await failInterrupted(key))[0] ?? (await findRequest(db, key)) ?? row;
      }
      return toRequestRecord(row);
    },

    /** Fails overdue requests now (also run at start and every minute). */
    failInterrupted: () => failInterrupted(),

    start() {
      sweep();
      sweeper = setInterval(sweep, SWEEP_EVERY_MS);
      sweeper.unref();
    },

    /** Waits for the answers still awaited, so a graceful stop leaves no request processing. */
    async stop() {
      clearInterval(sweeper);
      await Promise.allSettled([...waiting]);
    },
  };
}

export type DelayedRequests = ReturnType<typeof delayedRequests>;
