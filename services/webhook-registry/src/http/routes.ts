import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { answerHoldsSecret, listResource, requestContext } from "@cardhold/platform";
import { toWebhookRecord, webhookResource, type WebhookRow } from "../store/webhooks.store";
import { success as ok, type WebhookUseCases } from "../webhooks";

/**
 * The /webhooks API; routes only read the request and call the use cases. Writes answer what their use case recorded
 * for Idempotency-Key retries (ok(record), same status); a rolled key is never recorded (answerHoldsSecret).
 */
export function webhookRoutes(app: Express, db: Db, webhooks: WebhookUseCases): void {
  app.post("/webhooks", async (req, res) => {
    res.status(201).json(ok(await webhooks.create(requestContext(req), req.body)));
  });
  app.get("/webhooks", async (req, res) => {
    res.json(
      await listResource<WebhookRow>(req, {
        db,
        spec: webhookResource,
        scope: requestContext(req),
        toRecord: toWebhookRecord,
      }),
    );
  });
  app.get("/webhooks/:id", async (req, res) => {
    res.json(ok(await webhooks.get(requestContext(req), req.params.id)));
  });
  app.put("/webhooks/:id", async (req, res) => {
    res.json(ok(await webhooks.update(requestContext(req), req.params.id, req.body)));
  });
  app.delete("/webhooks/:id", async (req, res) => {
    res.json(ok(await webhooks.remove(requestContext(req), req.params.id)));
  });
  app.post("/webhooks/:id/enable", async (req, res) => {
    res.json(ok(await webhooks.enable(requestContext(req), req.params.id, req.body)));
  });
  app.post("/webhooks/:id/disable", async (req, res) => {
    res.json(ok(await webhooks.disable(requestContext(req), req.params.id, req.body)));
  });
  app.get("/webhooks/:id/secret", async (req, res) => {
    res.json(ok(await webhooks.secret(requestContext(req), req.params.id)));
  });
  app.post("/webhooks/:id/secret/roll", async (req, res) => {
    const rolled = await webhooks.rollSecret(requestContext(req), req.params.id, req.body);
    answerHoldsSecret(res);
    res.json(ok(rolled));
  });
}
