import type { Express } from "express";
import { requestContext } from "@cardhold/platform";
import type { Configuration } from "./configuration";

const ok = (data: unknown) => ({ code: "success", data });

export function configurationRoutes(app: Express, configuration: Configuration): void {
  app.get("/tools/configuration", async (req, res) => {
    res.json(ok(await configuration.get(requestContext(req))));
  });
  app.put("/tools/configuration/payment", async (req, res) => {
    res.json(ok(await configuration.updatePayment(requestContext(req), req.body)));
  });
}
