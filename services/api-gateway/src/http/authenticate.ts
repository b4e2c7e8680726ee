import type { NextFunction, Request, Response } from "express";
import { unauthorized } from "@cardhold/platform";
import type { BusinessUseCases, Caller } from "../businesses";
import { bearerToken } from "../domain/api-key";
import type { SessionCaller } from "../console/session-authentication";

declare module "express-serve-static-core" {
  interface Request {
    caller?: Caller;
  }
}

/**
 * Bearer secret key → the caller's business and mode; anything else is a 401. Without an Authorization header, the
 * console's session cookie stands for its key (src/console/session-authentication.ts).
 */
export function authenticate(businesses: BusinessUseCases, sessionCaller?: SessionCaller) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const header = req.header("authorization");
    const bySession = header === undefined && sessionCaller ? await sessionCaller(req) : undefined;
    if (bySession) {
      req.caller = bySession;
      return next();
    }
    const token = bearerToken(header);
    if (!token) throw unauthorized();
    const caller = await businesses.authenticate(token);
    if (!caller) throw unauthorized("The secret key is not valid");
    req.caller = caller;
    next();
  };
}
