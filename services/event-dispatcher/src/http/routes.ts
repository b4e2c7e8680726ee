import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource, notFound, requestContext } from "@cardhold/platform";
import { deliveriesOf, eventResource, findEvent, toEventRecord, type EventRow } from "../store/events.store";
import { getDeliveryStats } from "../use-cases/delivery-stats";
import { retryEvent } from "../use-cases/retry-event";
import { sendTestEvent } from "../use-cases/send-test-event";

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

  // Before /events/:id, which would take "stats" for an id.
  app.get("/events/stats", async (req, res) => {
    res.json({ code: "success", data: await getDeliveryStats(db, requestContext(req), req.query) });
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

  /** A signed webhook.test event to this webhook alone (the gateway routes this one path of /webhooks here). */
  app.post("/webhooks/:id/test", async (req, res) => {
    const answer = await sendTestEvent(db, requestContext(req), req.params.id as string, req.body);
    wakeWorker();
    res.status(202).json(answer);
  });
}
