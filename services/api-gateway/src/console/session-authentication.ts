/** The session cookie in place of `Authorization: Bearer <key>` on every public route (src/http/authenticate.ts). */
import type { Request } from "express";
import type { Caller } from "../api-keys";
import { sessionIdOf } from "./cookies";
import type { ConsoleSessions } from "./console-sessions";
import { isRead, requireCsrfOnWrite, requireSameOrigin } from "./request-guards";

export type SessionCaller = (req: Request) => Promise<Caller | undefined>;

/**
 * The caller of a request that carries the session cookie (undefined: it carries none): the session's key's caller,
 * after the CSRF token and Origin of a write were checked (403 otherwise). A refused session is a 401.
 */
export function sessionCaller(sessions: ConsoleSessions): SessionCaller {
  return async (req) => {
    const id = sessionIdOf(req.header("cookie"));
    if (id === undefined) return undefined;
    if (!isRead(req.method)) requireSameOrigin(req);
    const session = await sessions.find(id);
    requireCsrfOnWrite(req, session.csrfToken);
    await sessions.recordActivity(session);
    return session.caller;
  };
}
