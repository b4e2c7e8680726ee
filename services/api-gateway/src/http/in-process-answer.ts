import type { Request, Response } from "express";
import { AppResponse } from "@cardhold/platform";
import type { InProcessUpstream, UpstreamAnswer } from "./proxy";

type Chunk = string | Buffer | Uint8Array | undefined | (() => void);

const bytesOf = (chunk: Chunk, encoding: unknown): Buffer | undefined => {
  if (chunk === undefined || typeof chunk === "function") return undefined;
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as never) : "utf8");
  return Buffer.from(chunk);
};

/**
 * Runs a service in this process (the all-in-one) on the request with a response of its own, never connected to the
 * client: what the service writes is collected into the answer, so the gateway decides what the client gets (a
 * delayed request's 202 may have gone out meanwhile). Its `finish` is emitted, so the service logs the request.
 */
export function captureInProcess(req: Request, app: InProcessUpstream): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const detached = new AppResponse<Request>(req);
    const chunks: Buffer[] = [];
    const collect = (chunk: Chunk, encoding: unknown) => {
      const bytes = bytesOf(chunk, encoding);
      if (bytes) chunks.push(bytes);
    };
    detached.write = ((chunk: Chunk, encoding?: unknown) => {
      collect(chunk, encoding);
      return true;
    }) as typeof detached.write;
    let ended = false;
    detached.end = ((chunk?: Chunk, encoding?: unknown) => {
      if (ended) return detached;
      ended = true;
      collect(chunk, encoding);
      resolve({ statusCode: detached.statusCode, headers: detached.getHeaders(), body: Buffer.concat(chunks) });
      detached.emit("finish");
      return detached;
    }) as typeof detached.end;
    app(req, detached as unknown as Response, (error?: unknown) =>
      reject(error instanceof Error ? error : new Error(`in-process service did not answer ${req.method} ${req.path}`)),
    );
  });
}
