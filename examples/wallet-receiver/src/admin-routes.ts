import express, { type Router } from "express";
import { z } from "zod";
import type { Database } from "./database.js";
import { HttpError, methodNotAllowed } from "./http-errors.js";
import { listLiens } from "./liens.store.js";
import { listTransactions } from "./transactions.store.js";
import { findWallet, insertWallet, linkCard, newWalletId, saveWallet, walletView } from "./wallets.store.js";

const minorUnits = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const cardId = z.string().startsWith("c.").min(3);
const newWallet = z.strictObject({
  holderName: z.string().min(1),
  available: minorUnits,
  cards: z.array(cardId).default([]),
  active: z.boolean().default(true),
  captureLimit: minorUnits.positive().nullable().default(null),
});
const walletChange = z
  .strictObject({ holderName: z.string().min(1), active: z.boolean(), captureLimit: minorUnits.positive().nullable() })
  .partial();
const cardLink = z.strictObject({ card: cardId });
const deposit = z.strictObject({ amount: minorUnits.positive() });
const query = z.object({ authorization: z.string(), wallet: z.string(), card: z.string() }).partial();

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success)
    throw new HttpError(
      400,
      "Invalid Request",
      result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    );
  return result.data;
}

/**
 * The admin API of the example, for tests and demos (no authentication: keep it off the public internet):
 * wallets, their cards, deposits, and the liens and card transactions to compare with the platform's ledger.
 */
export function adminRoutes(db: Database): Router {
  const router = express.Router();
  const json = express.json();
  const view = (id: string) =>
    db.transaction(async (sql) => {
      const wallet = await walletView(sql, id);
      if (!wallet) throw new HttpError(404, `Wallet ${id} not found`);
      return wallet;
    });

  router
    .route("/wallets")
    .post(json, async (req, res) => {
      const body = parse(newWallet, req.body);
      const id = newWalletId();
      await db.transaction(async (sql) => {
        await insertWallet(sql, { id, ...body });
        for (const card of body.cards) {
          if (!(await linkCard(sql, id, card))) throw new HttpError(409, `Card ${card} belongs to another wallet`);
        }
      });
      res.status(201).json(await view(id));
    })
    .all(methodNotAllowed("POST"));

  router
    .route("/wallets/:id")
    .get(async (req, res) => void res.json(await view(req.params.id)))
    .patch(json, async (req, res) => {
      const change = parse(walletChange, req.body);
      await db.transaction(async (sql) => {
        const wallet = await findWallet(sql, req.params.id, true);
        if (!wallet) throw new HttpError(404, `Wallet ${req.params.id} not found`);
        await saveWallet(sql, wallet.id, { ...wallet, ...change });
      });
      res.json(await view(req.params.id));
    })
    .all(methodNotAllowed("GET, HEAD, PATCH"));

  router
    .route("/wallets/:id/cards")
    .post(json, async (req, res) => {
      const { card } = parse(cardLink, req.body);
      await db.transaction(async (sql) => {
        if (!(await findWallet(sql, req.params.id, true)))
          throw new HttpError(404, `Wallet ${req.params.id} not found`);
        if (!(await linkCard(sql, req.params.id, card)))
          throw new HttpError(409, `Card ${card} belongs to another wallet`);
      });
      res.status(201).json(await view(req.params.id));
    })
    .all(methodNotAllowed("POST"));

  router
    .route("/wallets/:id/deposits")
    .post(json, async (req, res) => {
      const { amount } = parse(deposit, req.body);
      await db.transaction(async (sql) => {
        const wallet = await findWallet(sql, req.params.id, true);
        if (!wallet) throw new HttpError(404, `Wallet ${req.params.id} not found`);
        await saveWallet(sql, wallet.id, { ...wallet, available: wallet.available + amount });
      });
      res.status(201).json(await view(req.params.id));
    })
    .all(methodNotAllowed("POST"));

  router
    .route("/liens")
    .get(async (req, res) => {
      const filter = parse(query, req.query);
      res.json({ data: await db.transaction((sql) => listLiens(sql, filter)) });
    })
    .all(methodNotAllowed("GET, HEAD"));

  router
    .route("/transactions")
    .get(async (req, res) => {
      const filter = parse(query, req.query);
      res.json({ data: await db.transaction((sql) => listTransactions(sql, filter)) });
    })
    .all(methodNotAllowed("GET, HEAD"));

  return router;
}
