import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource } from "@cardhold/platform";
import type { BillingUseCases } from "../billings";
import { billingResource, toBillingRecord, type BillingRow } from "../store/billings.store";
import { operatorGuard } from "./admin-routes";

/** The operator records a business's charges and marks them paid or void (operator token). */
export function billingAdminRoutes(app: Express, billings: BillingUseCases, operatorToken: string | undefined): void {
  const guard = operatorGuard(operatorToken);

  app.post("/admin/businesses/:id/billings", guard, async (req, res) => {
    res.status(201).json({ code: "success", data: await billings.create(req.params.id as string, req.body) });
  });

  app.patch("/admin/businesses/:id/billings/:billingId", guard, async (req, res) => {
    const { id, billingId } = req.params as { id: string; billingId: string };
    res.json({ code: "success", data: await billings.changeStatus(id, billingId, req.body) });
  });
}

/** The business reads its charges in the key's mode. */
export function billingRoutes(app: Express, db: Db, billings: BillingUseCases): void {
  app.get("/billings", async (req, res) => {
    const caller = req.caller!;
    const scope = { businessId: caller.businessId, mode: caller.mode };
    res.json(await listResource<BillingRow>(req, { db, spec: billingResource, scope, toRecord: toBillingRecord }));
  });

  app.get("/billings/:id", async (req, res) => {
    const caller = req.caller!;
    const scope = { businessId: caller.businessId, mode: caller.mode };
    res.json({ code: "success", data: await billings.get(scope, req.params.id as string) });
  });
}
