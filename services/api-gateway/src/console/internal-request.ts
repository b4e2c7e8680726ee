/**
 * A GET the gateway makes on a caller's behalf (the console's live stream reading the public list), shaped like a
 * client's request so the proxy forwards it the same way: over HTTP, or to the service's app in this process.
 */
import { Socket } from "node:net";
import type { Request } from "express";
import type { Logger } from "pino";
import { AppRequest, newId, withLazyRequestLogger } from "@cardhold/platform";
import type { Caller } from "../api-keys";

export function internalGet(path: string, caller: Caller, logger: Logger): Request {
  const req = new AppRequest(new Socket()) as unknown as Request;
  req.method = "GET";
  req.url = path;
  req.originalUrl = path;
  req.httpVersion = "1.1";
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.headers = { accept: "application/json" };
  req.caller = caller;
  req.requestId = newId("request");
  req.receivedAt = Date.now();
  withLazyRequestLogger(req, logger);
  return req;
}
