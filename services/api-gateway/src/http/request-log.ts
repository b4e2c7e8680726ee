import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import type { Db } from "@cardhold/db";
import { newId, redactedJsonText, redactSecrets } from "@cardhold/platform";
import { insertRequestLogs, type NewRequestLog } from "../store/request-logs.store";

const MAX_LOGGED_BODY = 16_384;

const withinLimit = (text: string) =>
  text.length > MAX_LOGGED_BODY ? JSON.stringify({ truncated: true, bytes: text.length }) : text;

/** A body as the JSON text to log: secrets redacted, `null` when absent or not JSON, a marker when too large. */
function loggableJson(value: unknown): string {
  if (value === undefined || value === null) return "null";
  return withinLimit(JSON.stringify(redactSecrets(value)));
}

/**
 * A proxied response is kept as the upstream's bytes (over HTTP) or the text it sent (in process); it is parsed (and
 * redacted) only after it was sent.
 */
function responseJson(body: unknown): string {
  if (!Buffer.isBuffer(body) && typeof body !== "string") return loggableJson(body);
  const bytes = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  if (bytes > MAX_LOGGED_BODY) return JSON.stringify({ truncated: true, bytes });
  try {
    // Kept as sent when nothing in it needs redacting: no parsed copy to redact and serialize again per answer.
    return withinLimit(redactedJsonText(typeof body === "string" ? body : body.toString("utf8")));
  } catch {
    return "null";
  }
}

declare module "express-serve-static-core" {
  interface Response {
    /** What the request log records of the response: the upstream's raw bytes or JSON text, or a value. */
    loggedBody?: Buffer | unknown;
  }
}

export interface RequestLog {
  /** Express middleware: records every authenticated API request (secrets redacted) once its response is sent. */
  middleware(req: Request, res: Response, next: NextFunction): void;
  /** Writes what is waiting (before this instance lists logs, and on stop). */
  flush(): Promise<void>;
}

/**
 * Request logs are written off the request path, gathered for up to `delayMs` into one statement whose commit does not
 * wait for the disk: at hundreds of requests a second that is one write instead of hundreds. A crash loses the logs
 * of the last fraction of a second — they are a record for the developer, not state (money and state changes live
 * in the services).
 */
export function createRequestLog(
  db: Db,
  logger: Logger,
  opts: { delayMs?: number; maxBatch?: number } = {},
): RequestLog {
  const delayMs = opts.delayMs ?? 20;
  const maxBatch = opts.maxBatch ?? 500;
  let waiting: NewRequestLog[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    if (batch.length > 0) {
      writing = writing
        .then(() => insertRequestLogs({ query: db.bookkeeping }, batch))
        .catch((err: unknown) => logger.warn({ err, lost: batch.length }, "request logs not written"));
    }
    return writing;
  };

  const add = (entry: NewRequestLog) => {
    waiting.push(entry);
    if (waiting.length >= maxBatch) void flush();
    else timer ??= setTimeout(() => void flush(), delayMs);
  };

  const entryFor = (
    req: Request,
    res: Response,
    caller: NonNullable<Request["caller"]>,
    durationMs: number,
  ): NewRequestLog => ({
    id: newId("log"),
    businessId: caller.businessId,
    mode: caller.mode,
    api_key: caller.keyId,
    request_id: req.requestId,
    method: req.method,
    path: req.path,
    status: res.statusCode,
    duration_ms: durationMs,
    requestBodyJson: loggableJson(req.body),
    responseBodyJson: responseJson(res.loggedBody),
  });

  return {
    middleware(req, res, next) {
      const started = Date.now();
      res.on("finish", () => {
        const caller = req.caller;
        if (!caller) return;
        try {
          add(entryFor(req, res, caller, Date.now() - started));
        } catch (err) {
          logger.warn({ err }, "request log not written");
        }
      });
      next();
    },
    flush,
  };
}
