import type { IncomingMessage, ServerResponse } from "node:http";
import type { Receiver } from "./receiver.js";
import { SIGNATURE_HEADER } from "./signature.js";
import { STANDARD_WEBHOOKS_HEADERS, type StandardWebhooksHeaders } from "./standard-webhooks.js";

export interface ReceiverRouterOptions {
  /** Largest body accepted, in bytes (default 1 MiB); above it the answer is 413. */
  limit?: number;
  /** Told about a handler's or the store's failure (default: console.error); the answer is then 500. */
  onError?: (error: unknown) => void;
  /**
   * The header the signature is read from (default Service-Signature; case-insensitive): e.g. `Acme-Signature` for a
   * receiver written to read it there, with the webhook's signatureHeaders naming it (the same value).
   */
  signatureHeader?: string;
}

/** A request as node:http gives it, or as express gives it (maybe with a raw body already read). */
type IncomingRequest = IncomingMessage & { body?: unknown };
type Next = (error?: unknown) => void;

/**
 * A request handler for express (`app.use(path, receiverRouter(receiver))`) or plain node:http: answers POSTs to
 * `path` (relative to where it is mounted) from the exact raw bytes, and passes anything else on to `next` (404
 * without one). It needs no express at run time. Mount it before any JSON body parser: the signature covers the
 * raw bytes, which a parser consumes.
 */
export function receiverRouter(receiver: Receiver, path = "/", opts: ReceiverRouterOptions = {}) {
  const limit = opts.limit ?? 1_048_576;
  const onError = opts.onError ?? ((error: unknown) => console.error("receiver failed:", error));
  const signatureHeader = (opts.signatureHeader ?? SIGNATURE_HEADER).toLowerCase();
  return (req: IncomingRequest, res: ServerResponse, next?: Next): void => {
    const pathname = (req.url ?? "/").split("?")[0] || "/";
    if (req.method !== "POST" || pathname !== path) {
      if (next) return next();
      return send(res, 404, { error: "Not Found" });
    }
    readRawBody(req, limit)
      .then(async (raw) => {
        if (raw === "too-large") return send(res, 413, { error: "Request Too Large" });
        const { status, body } = await receiver.handle(
          raw,
          firstOf(req.headers[signatureHeader]),
          standardWebhooksHeadersOf(req),
        );
        send(res, status, body);
      })
      .catch((error: unknown) => {
        onError(error);
        if (!res.headersSent) send(res, 500, { error: "Internal Error" });
      });
  };
}

const firstOf = (header: string | string[] | undefined) => (Array.isArray(header) ? header[0] : header);

/** webhook-id, webhook-timestamp and webhook-signature as the request has them. */
function standardWebhooksHeadersOf(req: IncomingRequest): StandardWebhooksHeaders {
  return {
    id: firstOf(req.headers[STANDARD_WEBHOOKS_HEADERS.id]),
    timestamp: firstOf(req.headers[STANDARD_WEBHOOKS_HEADERS.timestamp]),
    signature: firstOf(req.headers[STANDARD_WEBHOOKS_HEADERS.signature]),
  };
}

async function readRawBody(req: IncomingRequest, limit: number): Promise<Buffer | "too-large"> {
  if (Buffer.isBuffer(req.body)) return req.body.length > limit ? "too-large" : req.body;
  if (req.body !== undefined || req.readableEnded) {
    throw new Error(
      "the request body was already parsed: mount receiverRouter before express.json() or other body parsers",
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return "too-large";
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}
