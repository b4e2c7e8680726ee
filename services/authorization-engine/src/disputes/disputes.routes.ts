import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource, requestContext } from "@cardhold/platform";
import type { ExpandLoader } from "@cardhold/query";
import { disputeResource, type DisputeRow } from "../store/disputes.store";
import { toDisputeRecord } from "./dispute-records";
import {
  closeDisputeById,
  createDispute,
  getDispute,
  simulateDisputeLost,
  simulateDisputeWon,
  updateDisputeEvidence,
} from "./disputes";

const ok = (data: unknown) => ({ code: "success", data });

export function disputeRoutes(app: Express, db: Db, loaders: Record<string, ExpandLoader>): void {
  app.post("/disputes", async (req, res) => {
    res.status(201).json(ok(await createDispute(db, requestContext(req), req.body)));
  });
  app.get("/disputes", async (req, res) => {
    res.json(
      await listResource<DisputeRow>(req, {
        db,
        spec: disputeResource,
        scope: requestContext(req),
        toRecord: toDisputeRecord,
        loaders,
      }),
    );
  });
  app.get("/disputes/:id", async (req, res) => {
    res.json(ok(toDisputeRecord(await getDispute(db, requestContext(req), req.params.id))));
  });
  app.put("/disputes/:id", async (req, res) => {
    res.json(ok(await updateDisputeEvidence(db, requestContext(req), req.params.id, req.body)));
  });
  app.put("/disputes/:id/close", async (req, res) => {
    res.json(ok(await closeDisputeById(db, requestContext(req), req.params.id)));
  });
}

/**
 * Test mode: the network's outcome of a dispute. Registered after the engine's simulationRoutes, whose /simulation
 * guard refuses live keys (403) before these run.
 */
export function disputeSimulationRoutes(app: Express, db: Db): void {
  app.post("/simulation/disputes/:id/win", async (req, res) => {
    res.json(ok(await simulateDisputeWon(db, requestContext(req), req.params.id)));
  });
  app.post("/simulation/disputes/:id/lose", async (req, res) => {
    res.json(ok(await simulateDisputeLost(db, requestContext(req), req.params.id)));
  });
}
