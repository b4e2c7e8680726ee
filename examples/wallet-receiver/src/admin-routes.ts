import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { z } from "zod";
import type { Database } from "./database.js";
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
const walletChange = z.strictObject({ holderName: z.string().min(1), active: z.boolean(), captureLimit: minorUnits.positive().nullable() }).partial();
const cardLink = z.strictObject({ card: cardId });
const deposit = z.strictObject({ amount: minorUnits.positive() });
const query = z.object({ authorization: z.string(), wallet: z.string(), card: z.string() }).partial();

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: unknown,
  ) {
    super(message);
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw new HttpError(400, "Invalid Request", result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  return result.data;
}

/**
 * The admin API of the example, for tests and demos (no authentication: keep it off the public internet):
 * wallets, their cards, deposits, and the liens and card transactions to compare with the platform's ledger.
 */
export function adminRoutes(db: Database): Router {
  const router = express.Router();
  router.use(express.json());
  const view = (id: string) =>
    db.transaction(async (sql) => {
      const wallet = await walletView(sql, id);
      if (!wallet) throw new HttpError(404, `Wallet ${id} not found`);
      return wallet;
    });

  router.post("/wallets", async (req, res) => {
    const body = parse(newWallet, req.body);
    const id = newWalletId();
    await db.transaction(async (sql) => {
      await insertWallet(sql, { id, ...body });
      for (const card of body.cards) {
        if (!(await linkCard(sql, id, card))) throw new HttpError(409, `Card ${card} belongs to another wallet`);
      }
    });
    res.status(201).json(await view(id));
  });

  router.get("/wallets/:id", async (req, res) => void res.json(await view(req.params.id as string)));

  router.patch("/wallets/:id", async (req, res) => {
    const change = parse(walletChange, req.body);
    await db.transaction(async (sql) => {
      const wallet = await findWallet(sql, req.params.id as string, true);
      if (!wallet) throw new HttpError(404, `Wallet ${req.params.id} not found`);
      await saveWallet(sql, wallet.id, { ...wallet, ...change });
    });
    res.json(await view(req.params.id as string));
  });

  router.post("/wallets/:id/cards", async (req, res) => {
    const { card } = parse(cardLink, req.body);
    await db.transaction(async (sql) => {
      if (!(await findWallet(sql, req.params.id as string, true))) throw new HttpError(404, `Wallet ${req.params.id} not found`);
      if (!(await linkCard(sql, req.params.id as string, card))) throw new HttpError(409, `Card ${card} belongs to another wallet`);
    });
    res.status(201).json(await view(req.params.id as string));
  });

  router.post("/wallets/:id/deposits", async (req, res) => {
    const { amount } = parse(deposit, req.body);
    await db.transaction(async (sql) => {
      const wallet = await findWallet(sql, req.params.id as string, true);
      if (!wallet) throw new HttpError(404, `Wallet ${req.params.id} not found`);
      await saveWallet(sql, wallet.id, { ...wallet, available: wallet.available + amount });
    });
    res.status(201).json(await view(req.params.id as string));
  });

  router.get("/liens", async (req, res) => {
    const filter = parse(query, req.query);
    res.json({ data: await db.transaction((sql) => listLiens(sql, filter)) });
  });

  router.get("/transactions", async (req, res) => {
    const filter = parse(query, req.query);
    res.json({ data: await db.transaction((sql) => listTransactions(sql, filter)) });
  });

  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof HttpError) return void res.status(error.status).json({ error: error.message, ...(error.issues ? { issues: error.issues } : {}) });
    if (error instanceof SyntaxError) return void res.status(400).json({ error: "Invalid JSON" });
    console.error("wallet-receiver admin API failed:", error);
    res.status(500).json({ error: "Internal Error" });
  });
  return router;
}
