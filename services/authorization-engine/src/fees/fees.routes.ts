import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource, requestContext } from "@cardhold/platform";
import type { ExpandLoader } from "@cardhold/query";
import { feeResource, type FeeRow } from "../store/fees.store";
import { toFeeRecord } from "./fee-records";
import { createFee, getFee } from "./fees";

const ok = (data: unknown) => ({ code: "success", data });

export function feeRoutes(app: Express, db: Db, loaders: Record<string, ExpandLoader>): void {
  app.post("/fees", async (req, res) => {
    res.status(201).json(ok(await createFee(db, requestContext(req), req.body)));
  });
  app.get("/fees", async (req, res) => {
    res.json(
      await listResource<FeeRow>(req, {
        db,
        spec: feeResource,
        scope: requestContext(req),
        toRecord: toFeeRecord,
        loaders,
      }),
    );
  });
  app.get("/fees/:id", async (req, res) => {
    res.json(ok(toFeeRecord(await getFee(db, requestContext(req), req.params.id))));
  });
}
