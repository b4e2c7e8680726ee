import type { Express } from "express";
import { listResource, requestContext } from "@cardhold/platform";
import type { ExpandLoader } from "@cardhold/query";
import type { CardContext } from "../cards/cards";
import { programResource, type ProgramRow } from "../store/programs.store";
import { toProgramRecord } from "./program-records";
import { createProgram, getProgram, updateProgram } from "./programs";

const ok = (data: unknown) => ({ code: "success", data });

export function programRoutes(app: Express, ctx: CardContext, loaders: Record<string, ExpandLoader>): void {
  const { db } = ctx;
  app.post("/card-programs", async (req, res) => {
    res.status(201).json(ok(await createProgram(db, requestContext(req), req.body)));
  });
  app.get("/card-programs", async (req, res) => {
    res.json(
      await listResource<ProgramRow>(req, {
        db,
        spec: programResource,
        scope: requestContext(req),
        toRecord: toProgramRecord,
        loaders,
      }),
    );
  });
  app.get("/card-programs/:id", async (req, res) => {
    res.json(ok(toProgramRecord(await getProgram(db, requestContext(req), req.params.id))));
  });
  app.put("/card-programs/:id", async (req, res) => {
    res.json(ok(await updateProgram(db, requestContext(req), req.params.id, req.body)));
  });
}
