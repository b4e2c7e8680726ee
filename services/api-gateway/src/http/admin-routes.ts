import { timingSafeEqual } from "node:crypto";
import type { Express, NextFunction, Request, Response } from "express";
import { AppError } from "@cardhold/platform";
import type { BusinessUseCases } from "../businesses";

function sameSecret(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Lets an operator through: 404 when no token is configured, 401 without the right one. */
export function operatorGuard(operatorToken: string | undefined) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = req.header("x-operator-token");
    if (!operatorToken) throw new AppError(404, "not-found", "Admin endpoints are disabled: no OPERATOR_TOKEN is set");
    if (!given || !sameSecret(given, operatorToken))
      throw new AppError(401, "unauthorized", "A valid X-Operator-Token header is required");
    next();
  };
}

/** Operator endpoints, guarded by the operator token; absent when no token is configured. */
export function adminRoutes(app: Express, businesses: BusinessUseCases, operatorToken: string | undefined): void {
  const guard = operatorGuard(operatorToken);

  app.post("/admin/businesses", guard, async (req, res) => {
    res.status(201).json({ code: "success", data: await businesses.createBusiness(req.body) });
  });

  app.get("/admin/businesses/:id/keys", guard, async (req, res) => {
    res.json({ code: "success", data: await businesses.listKeys(req.params.id as string) });
  });

  /** The key's secret is in this answer only. */
  app.post("/admin/businesses/:id/keys", guard, async (req, res) => {
    res.status(201).json({ code: "success", data: await businesses.createKey(req.params.id as string, req.body) });
  });

  /** Changes a key's delayed requests: on this gateway at once, on every gateway within a second. */
  app.patch("/admin/businesses/:id/keys/:keyId", guard, async (req, res) => {
    res.json({
      code: "success",
      data: await businesses.updateKey(req.params.id as string, req.params.keyId as string, req.body),
    });
  });

  /** Revokes (idempotent): 401 on this gateway at once, on every gateway within a second. */
  app.delete("/admin/businesses/:id/keys/:keyId", guard, async (req, res) => {
    res.json({
      code: "success",
      data: await businesses.revokeKey(req.params.id as string, req.params.keyId as string),
    });
  });
}
