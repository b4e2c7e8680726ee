import type { NextFunction, Request, Response } from "express";
import { forbidden } from "@cardhold/platform";
import { missingPermission } from "../domain/permissions";

/** A restricted key's request outside its permissions is a 403 naming the missing permission (after the request log). */
export function authorize() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const caller = req.caller!;
    const missing = missingPermission(caller.permissions, req.method, req.path);
    if (missing) {
      throw forbidden(`This API key lacks the '${missing}' permission needed for ${req.method} ${req.path}`);
    }
    next();
  };
}
