import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource } from "@cardhold/platform";
import type { RequestLog } from "./request-log";
import { apiKeyResource, loadApiKeys } from "../store/businesses.store";
import { requestLogResource, toRequestLogRecord, type RequestLogRow } from "../store/request-logs.store";

/** Lists this business's request logs; the ones this gateway still holds are written first (read your own writes). */
export function logsRoutes(app: Express, db: Db, requestLog: Pick<RequestLog, "flush">): void {
  app.get("/logs", async (req, res) => {
    await requestLog.flush();
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
