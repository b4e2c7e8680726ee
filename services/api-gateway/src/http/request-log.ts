import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import type { Db } from "@cardhold/db";
import { newId, redactSecrets } from "@cardhold/platform";
import { insertRequestLog } from "../store/request-logs.store";

const MAX_LOGGED_BODY = 16_384;

function loggableBody(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const redacted = redactSecrets(value);
  const text = JSON.stringify(redacted);
  return text.length > MAX_LOGGED_BODY ? { truncated: true, bytes: text.length } : redacted;
}

declare module "express-serve-static-core" {
  interface Response {
    loggedBody?: unknown;
  }
}

/** Records every authenticated API request (secrets redacted) once its response is sent. */
export function requestLog(db: Db, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = Date.now();
    res.on("finish", () => {
      const caller = req.caller;
      if (!caller) return;
      try {
        writeLogEntry(req, res, caller, Date.now() - started);
      } catch (err) {
        logger.warn({ err }, "request log not written");
      }
    });
    next();
  };

  function writeLogEntry(req: Request, res: Response, caller: NonNullable<Request["caller"]>, durationMs: number) {
    insertRequestLog(db, {
      id: newId("log"),
      businessId: caller.businessId,
      mode: caller.mode,
      api_key: caller.keyId,
      request_id: req.requestId,
      method: req.method,
      path: req.path,
      status: res.statusCode,
      duration_ms: durationMs,
      request_body: loggableBody(req.body),
      response_body: loggableBody(res.loggedBody),
    }).catch((err: unknown) => logger.warn({ err }, "request log not written"));
  }
}
