import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource, requestContext } from "@cardhold/platform";
import type { CustomerUseCases } from "../customers";
import { toCustomerRecord, type CustomerRow } from "../domain/customer";
import { customerResource } from "../store/customers.store";

export function customerRoutes(app: Express, db: Db, customers: CustomerUseCases): void {
  app.post("/customers", async (req, res) => {
    res.status(201).json({ code: "success", data: await customers.create(requestContext(req), req.body) });
  });

  app.get("/customers", async (req, res) => {
    const scope = requestContext(req);
    res.json(
      await listResource<CustomerRow>(req, {
        db,
        spec: customerResource,
        scope,
        toRecord: (row) => toCustomerRecord(row),
      }),
    );
  });

  app.get("/customers/:id", async (req, res) => {
    res.json({ code: "success", data: await customers.get(requestContext(req), req.params.id) });
  });

  app.put("/customers/:id", async (req, res) => {
    res.json({ code: "success", data: await customers.update(requestContext(req), req.params.id, req.body) });
  });
}
