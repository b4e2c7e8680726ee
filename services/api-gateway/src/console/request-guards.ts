/** What a request carrying the session cookie must show besides it: the CSRF token on writes, and our own Origin. */
import type { Request } from "express";
import { forbidden } from "@cardhold/platform";
import { CSRF_HEADER, sameToken } from "./session-rules";

const READS = new Set(["GET", "HEAD"]);

export const isRead = (method: string): boolean => READS.has(method.toUpperCase());

/**
 * Whether the Origin header, when there is one, names this gateway: its host (and port) must be the request's own
 * Host (or X-Forwarded-Host behind a trusted proxy). The scheme is not compared, so a TLS-terminating proxy that does
 * not say X-Forwarded-Proto does not lock the console out; `Origin: null` (a sandboxed or opaque origin) is refused.
 */
export function isSameOrigin(req: Request): boolean {
  const origin = req.header("origin");
  if (origin === undefined) return true;
  let host: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    host = url.host;
  } catch {
    return false;
  }
  const own = req.host;
  return own !== undefined && host.toLowerCase() === own.toLowerCase();
}

export function requireSameOrigin(req: Request): void {
  if (!isSameOrigin(req))
    throw forbidden("The Origin of this request is not the console's: cross-site requests are refused");
}

/** A write with the session cookie needs the session's CSRF token in X-CSRF-Token, and our own Origin if it names one. */
export function requireCsrfOnWrite(req: Request, csrfToken: string): void {
  if (isRead(req.method)) return;
  requireSameOrigin(req);
  if (!sameToken(req.header(CSRF_HEADER), csrfToken)) {
    throw forbidden("A write with the console session needs its CSRF token in the X-CSRF-Token header");
  }
}

/** Whether the request came over TLS (to this process, or to a trusted proxy that said so in X-Forwarded-Proto). */
export const cameOverTls = (req: Request): boolean => req.secure;

/** The client's address for the sign-in limit: the socket's, or the one a trusted proxy gave (X-Forwarded-For). */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? "unknown";
