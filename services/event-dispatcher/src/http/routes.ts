import type { Express } from "express";
import { z } from "zod";
import type { Db } from "@cardhold/db";
import { listResource, notFound, requestContext, validate } from "@cardhold/platform";
import {
  deliveriesOf,
  eventResource,
  findEvent,
  retryDeliveries,
  toEventRecord,
  type EventRow,
} from "../store/events.store";

const emptyBody = z.object({}).strict();

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

  /** Sends the event again now to every webhook it was routed to, whatever their state. */
  app.post("/events/:id/retry", async (req, res) => {
    validate(emptyBody, req.body ?? {});
    const scope = requestContext(req);
    const row = await findEvent(db, scope, req.params.id as string);
    if (!row) throw notFound("Event", req.params.id as string);
    await retryDeliveries(db, row.id);
    wakeWorker();
    const fresh = (await findEvent(db, scope, row.id))!;
    res.json({ code: "success", data: { ...toEventRecord(fresh), deliveries: await deliveriesOf(db, row.id) } });
  });
}
