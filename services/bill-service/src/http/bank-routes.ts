import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource, requestContext } from "@cardhold/platform";
import { BankUnavailable, type BankTools } from "../banks/bank-tools";
import { bankResource, banksQueryable, type BankRow } from "../store/banks.store";

export function bankRoutes(app: Express, db: Db, banks: BankTools): void {
  /** The list query language (filter, sort, select, limit, after …) as on every list; default order: by name. */
  app.get("/tools/banks", async (req, res) => {
    const scope = requestContext(req);
    res.json(
      await listResource<BankRow>(req, {
        db: banksQueryable(db, scope),
        spec: bankResource,
        scope,
        toRecord: (row) => ({ ...row.record }),
      }),
    );
  });

  app.get("/tools/banks/resolve", async (req, res) => {
    try {
      res.json({ code: "success", data: await banks.resolve(requestContext(req), req.query) });
    } catch (error) {
      // A bank that did not answer: 503 with Retry-After (the error handler writes the body).
      if (error instanceof BankUnavailable) res.setHeader("retry-after", String(error.retryAfterSeconds));
      throw error;
    }
  });

  app.get("/tools/banks/short-list/:accountNumber", (req, res) => {
    const data = banks.shortList(req.params.accountNumber);
    res.json({ code: "success", data, metadata: { hasMore: false } });
  });
}
