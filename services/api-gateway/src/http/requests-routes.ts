import type { Express } from "express";
import type { DelayedRequests } from "../delayed-requests";

/** A delayed request's state and, once done, its answer (the id is the x-request-id of its 202). */
export function requestsRoutes(app: Express, delayed: Pick<DelayedRequests, "get">): void {
  app.get("/requests/:id", async (req, res) => {
    const caller = req.caller!;
    const scope = { businessId: caller.businessId, mode: caller.mode };
    res.json({ code: "success", data: await delayed.get(scope, req.params.id as string) });
  });
}
