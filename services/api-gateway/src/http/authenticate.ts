import type { NextFunction, Request, Response } from "express";
import { unauthorized } from "@cardhold/platform";
import type { BusinessUseCases, Caller } from "../businesses";
import { bearerToken } from "../domain/api-key";

declare module "express-serve-static-core" {
  interface Request {
    caller?: Caller;
  }
}

/** Bearer secret key → the caller's business and mode; anything else is a 401. */
export function authenticate(businesses: BusinessUseCases) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req.header("authorization"));
    if (!token) throw unauthorized();
    const caller = await businesses.authenticate(token);
    if (!caller) throw unauthorized("The secret key is not valid");
    req.caller = caller;
    next();
  };
}
