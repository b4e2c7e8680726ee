import type { NextFunction, Request, RequestHandler, Response } from "express";

/** Every error answer of the receiver is JSON: `{error, issues?}`, as the webhook's own are (`{error}`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: unknown,
  ) {
    super(message);
  }
}

/** For routes' `.all()`, after the methods they take. */
export function methodNotAllowed(allowed: string): RequestHandler {
  return (_req, res) => void res.status(405).set("allow", allowed).json({ error: "Method Not Allowed" });
}

export const notFound: RequestHandler = (_req, res) => void res.status(404).json({ error: "Not Found" });

/** Errors of the body parser (bad JSON, too large) and of the routes, as JSON instead of express's HTML page. */
export function errorAnswer(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(error);
  if (error instanceof HttpError)
    return void res
      .status(error.status)
      .json({ error: error.message, ...(error.issues ? { issues: error.issues } : {}) });
  // body-parser's and express's own errors carry their HTTP status and, for bodies, a type.
  const { status, type } = error as { status?: number; type?: string };
  if (type === "entity.parse.failed") return void res.status(400).json({ error: "Invalid JSON" });
  if (status === 413) return void res.status(413).json({ error: "Request Too Large" });
  if (status !== undefined && status >= 400 && status < 500)
    return void res.status(status).json({ error: "Invalid Request" });
  console.error("wallet-receiver: request failed:", error);
  res.status(500).json({ error: "Internal Error" });
}
