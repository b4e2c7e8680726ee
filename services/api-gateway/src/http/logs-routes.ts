import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource } from "@cardhold/platform";
import { apiKeyResource, loadApiKeys } from "../store/businesses.store";
import { requestLogResource, toRequestLogRecord, type RequestLogRow } from "../store/request-logs.store";

export function logsRoutes(app: Express, db: Db): void {
  app.get("/logs", async (req, res) => {
    const caller = req.caller!;
    const scope = { businessId: caller.businessId, mode: caller.mode };
    res.json(
      await listResource<RequestLogRow>(req, {
        db,
        spec: requestLogResource,
        scope,
        toRecord: toRequestLogRecord,
        loaders: { apiKey: { spec: apiKeyResource, load: (ids, s) => loadApiKeys(db, ids, s) } },
      }),
    );
  });
}
