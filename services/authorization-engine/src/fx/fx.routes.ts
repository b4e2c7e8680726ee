import type { Express } from "express";
import { requestContext } from "@cardhold/platform";
import { createQuote, listRates, type FxContext } from "./quotes";

export function fxRoutes(app: Express, ctx: FxContext): void {
  app.get("/tools/fx/rates", async (req, res) => {
    res.json(await listRates(ctx, requestContext(req), req.query));
  });
  app.post("/tools/fx/quotes", async (req, res) => {
    res.status(201).json({ code: "success", data: await createQuote(ctx, requestContext(req), req.body) });
  });
}
