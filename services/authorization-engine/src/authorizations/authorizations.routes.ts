import type { Express, NextFunction, Request, Response } from "express";
import type { Db } from "@cardhold/db";
import { forbidden, listResource, notFound, receivedAt, requestContext } from "@cardhold/platform";
import type { ExpandLoader } from "@cardhold/query";
import { simulatePayIn } from "../accounts/accounts";
import type { simulation } from "./simulation";
import { simulateGoLive } from "../programs/programs";
import { toAuthorizationRecord, toTransactionRecord } from "./authorization-records";
import { getAuthorizationStats } from "./authorization-stats";
import { authorizationResource, findAuthorization, type AuthorizationRow } from "../store/authorizations.store";
import { findTransaction, transactionResource, type TransactionRow } from "../store/transactions.store";

const ok = (data: unknown) => ({ code: "success", data });

export function authorizationRoutes(app: Express, db: Db, loaders: Record<string, ExpandLoader>): void {
  app.get("/card-authorizations", async (req, res) => {
    res.json(
      await listResource<AuthorizationRow>(req, {
        db,
        spec: authorizationResource,
        scope: requestContext(req),
        toRecord: toAuthorizationRecord,
        loaders,
      }),
    );
  });
  // Before /card-authorizations/:id, which would take "stats" for an id.
  app.get("/card-authorizations/stats", async (req, res) => {
    res.json(ok(await getAuthorizationStats(db, requestContext(req), req.query)));
  });
  app.get("/card-authorizations/:id", async (req, res) => {
    const row = await findAuthorization(db, requestContext(req), req.params.id);
    if (!row) throw notFound("Card authorization", req.params.id);
    res.json(ok(toAuthorizationRecord(row)));
  });
  app.get("/card-transactions", async (req, res) => {
    res.json(
      await listResource<TransactionRow>(req, {
        db,
        spec: transactionResource,
        scope: requestContext(req),
        toRecord: toTransactionRecord,
        loaders,
      }),
    );
  });
  app.get("/card-transactions/:id", async (req, res) => {
    const row = await findTransaction(db, requestContext(req), req.params.id);
    if (!row) throw notFound("Card transaction", req.params.id);
    res.json(ok(toTransactionRecord(row)));
  });
}

/** Simulation is for test keys only: with a live key every /simulation path answers 403. */
function testModeOnly(req: Request, _res: Response, next: NextFunction) {
  if (requestContext(req).mode !== "test") throw forbidden("Simulation endpoints take a test key (sk.test.…) only");
  next();
}

export function simulationRoutes(app: Express, db: Db, sim: ReturnType<typeof simulation>): void {
  app.use("/simulation", testModeOnly);
  const authorizationPaths = [
    ["check", sim.check],
    ["capture", sim.capture],
    ["update-capture", sim.updateCapture],
    ["reverse-capture", sim.reverseCapture],
  ] as const;
  for (const [path, run] of authorizationPaths) {
    app.post(`/simulation/cards/:id/request-authorization/${path}`, async (req, res) => {
      res.json(ok(toAuthorizationRecord(await run(requestContext(req), req.params.id, req.body, receivedAt(req)))));
    });
  }
  app.post("/simulation/card-programs/:id/go-live", async (req, res) => {
    res.json(ok(await simulateGoLive(db, requestContext(req), req.params.id)));
  });
  app.post("/simulation/payments/pay-in", async (req, res) => {
    res.json(ok(await simulatePayIn(db, requestContext(req), req.body)));
  });
}
