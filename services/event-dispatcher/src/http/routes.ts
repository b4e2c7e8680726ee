import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource, notFound, requestContext } from "@cardhold/platform";
import { deliveriesOf, eventResource, findEvent, toEventRecord, type EventRow } from "../store/events.store";
import { retryEvent } from "../use-cases/retry-event";

export function eventRoutes(app: Express, db: Db, wakeWorker: () => void): void {
  app.get("/events", async (req, res) => {
    res.json(
      await listResource<EventRow>(req, {
        db,
        spec: eventResource,
        scope: requestContext(req),
        toRecord: toEventRecord,
      }),
    );
  });

  app.get("/events/:id", async (req, res) => {
    const scope = requestContext(req);
    const row = await findEvent(db, scope, req.params.id as string);
    if (!row) throw notFound("Event", req.params.id as string);
    res.json({
      code: "success",
      data: { ...toEventRecord(row), payload: JSON.parse(row.envelope), deliveries: await deliveriesOf(db, row.id) },
    });
  });

  /** Sends the event again now to every webhook it was routed to, whatever their state (answers what it recorded). */
  app.post("/events/:id/retry", async (req, res) => {
    const answer = await retryEvent(db, requestContext(req), req.params.id as string, req.body);
    wakeWorker();
    res.json(answer);
  });
}
