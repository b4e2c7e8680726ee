import type { Express } from "express";
import { listResource, requestContext } from "@cardhold/platform";
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
    res.json(ok(toCardRecord(await getCard(db, requestContext(req), req.params.id))));
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
  app.get("/cards/:id/secrets", async (req, res) => {
    res.set("cache-control", "no-store");
    res.json(ok(await cardSecrets(ctx, requestContext(req), req.params.id)));
  });
}
