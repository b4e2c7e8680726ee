/** Sign-in, the session, sign-out: POST, GET and DELETE /console/api/session. */
import type { Express, Request, Response } from "express";
import { z } from "zod";
import { AppError, unauthorized, validate } from "@cardhold/platform";
import { clearedSessionCookie, sessionCookie, sessionIdOf } from "./cookies";
import { sessionView, type ConsoleSessions } from "./console-sessions";
import { cameOverTls, clientAddress, requireCsrfOnWrite, requireSameOrigin } from "./request-guards";
import { cookieMaxAgeSeconds } from "./session-rules";
import type { SignInLimit } from "./sign-in-limit";

export const signInSchema = z.strictObject({
  key: z.string().min(1).max(200).describe("A secret key, `sk.test.…` or `sk.live.…`"),
});

function admitSignIn(req: Request, res: Response, limit: SignInLimit): void {
  const decision = limit.attempt(clientAddress(req), Date.now());
  if (decision.admitted) return;
  res.setHeader("Retry-After", String(decision.retryAfter));
  throw new AppError(429, "rate-limited", `Too many sign-in attempts: try again in ${decision.retryAfter} s`);
}

/** A session's answers are never cached: they carry its CSRF token. */
const noStore = (res: Response) => res.setHeader("Cache-Control", "no-store");

export function sessionRoutes(app: Express, sessions: ConsoleSessions, limit: SignInLimit): void {
  app.post("/console/api/session", async (req, res) => {
    noStore(res);
    requireSameOrigin(req);
    admitSignIn(req, res, limit);
    const { key } = validate(signInSchema, req.body);
    const signedIn = await sessions.signIn(key);
    if (!signedIn) throw unauthorized("The secret key is not valid");
    const { id, session } = signedIn;
    res.setHeader(
      "Set-Cookie",
      sessionCookie(id, cookieMaxAgeSeconds(session.times, session.times.createdAt), cameOverTls(req)),
    );
    res.status(201).json(sessionView(session));
  });

  app.get("/console/api/session", async (req, res) => {
    noStore(res);
    const session = await sessions.find(sessionIdOf(req.header("cookie")));
    await sessions.recordActivity(session);
    res.json(sessionView(session));
  });

  app.delete("/console/api/session", async (req, res) => {
    noStore(res);
    const session = await sessions.find(sessionIdOf(req.header("cookie")));
    requireCsrfOnWrite(req, session.csrfToken);
    await sessions.signOut(session);
    res.setHeader("Set-Cookie", clearedSessionCookie(cameOverTls(req)));
    res.status(204).end();
  });
}
