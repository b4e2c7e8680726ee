import type { Express } from "express";
import { CARD_ENROLLMENT_TYPES } from "@cardhold/contracts";
import { answerHoldsSecret, listResource, requestContext } from "@cardhold/platform";
import type { ExpandLoader } from "@cardhold/query";
import { getAccount } from "../accounts/accounts";
import {
  activateCard,
  blockCard,
  cardSecrets,
  createCard,
  fundCard,
  getCard,
  resetPin,
  terminateCard,
  unblockCard,
  updateCardSettings,
  type CardContext,
} from "./cards";
import { toAccountRecord, toBalanceRecord } from "../accounts/account-records";
import { toCardRecord } from "./card-records";
import { enrollCard, withEnrollments } from "./card-enrollments";
import { linkCard, simulatePrintCards } from "./card-links";
import { cardResource, type CardRow } from "../store/cards.store";

const ok = (data: unknown) => ({ code: "success", data });

export function cardRoutes(app: Express, ctx: CardContext, loaders: Record<string, ExpandLoader>): void {
  const { db } = ctx;
  app.post("/cards", async (req, res) => {
    res.status(201).json(ok(await createCard(ctx, requestContext(req), req.body)));
  });
  app.get("/cards", async (req, res) => {
    res.json(
      await listResource<CardRow>(req, {
        db,
        spec: cardResource,
        scope: requestContext(req),
        toRecord: toCardRecord,
        loaders,
      }),
    );
  });
  app.get("/cards/:id", async (req, res) => {
    const scope = requestContext(req);
    res.json(ok(await withEnrollments(db, scope, toCardRecord(await getCard(db, scope, req.params.id)))));
  });
  app.put("/cards/:id", async (req, res) => {
    res.json(ok(await updateCardSettings(db, requestContext(req), req.params.id, req.body)));
  });
  app.delete("/cards/:id", async (req, res) => {
    res.json(ok(await terminateCard(db, requestContext(req), req.params.id)));
  });
  app.post("/cards/:id/activate", async (req, res) => {
    res.json(ok(await activateCard(ctx, requestContext(req), req.params.id, req.body)));
  });
  app.post("/cards/:id/reset-pin", async (req, res) => {
    res.json(ok(await resetPin(ctx, requestContext(req), req.params.id, req.body)));
  });
  app.post("/cards/:id/block", async (req, res) => {
    res.json(ok(await blockCard(db, requestContext(req), req.params.id)));
  });
  app.post("/cards/:id/unblock", async (req, res) => {
    res.json(ok(await unblockCard(db, requestContext(req), req.params.id)));
  });
  app.post("/cards/:id/fund", async (req, res) => {
    res.json(ok(await fundCard(db, requestContext(req), req.params.id, req.body)));
  });
  app.get("/cards/:id/funding-source", async (req, res) => {
    const scope = requestContext(req);
    res.json(
      ok(toAccountRecord(await getAccount(db, scope, (await getCard(db, scope, req.params.id)).funding_account_id))),
    );
  });
  app.get("/cards/:id/funding-source/balance", async (req, res) => {
    const scope = requestContext(req);
    res.json(
      ok(toBalanceRecord(await getAccount(db, scope, (await getCard(db, scope, req.params.id)).funding_account_id))),
    );
  });
  app.post("/cards/:id/link", async (req, res) => {
    res.json(ok(await linkCard(ctx, requestContext(req), req.params.id, req.body)));
  });
  for (const type of CARD_ENROLLMENT_TYPES) {
    app.post(`/cards/:id/enroll/${type}`, async (req, res) => {
      const { status, record } = await enrollCard(db, requestContext(req), req.params.id, type, req.body);
      res.status(status).json(ok(record));
    });
  }
  app.get("/cards/:id/secrets", async (req, res) => {
    res.set("cache-control", "no-store");
    res.json(ok(await cardSecrets(ctx, requestContext(req), req.params.id)));
  });
}

/** Test mode: the card bureau prints a physical program's cards. After simulationRoutes, whose guard takes test keys only. */
export function cardPrintingRoutes(app: Express, ctx: CardContext): void {
  app.post("/simulation/card-programs/:id/print-cards", async (req, res) => {
    const printed = await simulatePrintCards(ctx, requestContext(req), req.params.id, req.body);
    answerHoldsSecret(res);
    res.status(201).json(ok(printed));
  });
}
