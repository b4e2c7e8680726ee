import type { Request } from "express";
import { unauthorized } from "./errors";

/** Headers the gateway sets on every forwarded request; services trust them only with the internal token. */
export const INTERNAL_HEADERS = {
  token: "x-internal-token",
  businessId: "x-business-id",
  mode: "x-mode",
  keyId: "x-key-id",
  requestId: "x-request-id",
  /** When the gateway received the request (ms since the epoch): a network's deadline runs from there. */
  receivedAt: "x-received-at",
} as const;

export type Mode = "test" | "live";

export interface RequestContext {
  businessId: string;
  mode: Mode;
  keyId: string | undefined;
  requestId: string;
}

/** The caller's business and mode, as the gateway resolved them from the API key. */
export function requestContext(req: Request): RequestContext {
  const businessId = req.header(INTERNAL_HEADERS.businessId);
  const mode = req.header(INTERNAL_HEADERS.mode);
  if (!businessId || (mode !== "test" && mode !== "live")) throw unauthorized("request carries no business context");
  return {
    businessId,
    mode,
    keyId: req.header(INTERNAL_HEADERS.keyId),
    requestId: String(req.res?.getHeader(INTERNAL_HEADERS.requestId) ?? ""),
  };
}

/** When the request reached the platform: the gateway's time when it came through one, else this process's. */
export function receivedAt(req: Request): number {
  const given = Number(req.header(INTERNAL_HEADERS.receivedAt));
  return Number.isSafeInteger(given) && given > 0 ? given : req.receivedAt;
}
