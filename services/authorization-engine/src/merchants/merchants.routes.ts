import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource } from "@cardhold/platform";
import { merchantResource, MERCHANT_DIRECTORY_SCOPE, type MerchantRow } from "../store/merchants.store";
import { toMerchantRecord } from "./merchant-records";
import { getMerchant, merchantCategories } from "./merchants";

const ok = (data: unknown) => ({ code: "success", data });

export function merchantRoutes(app: Express, db: Db): void {
  /** The list query language (filter, sort, select, limit, after …) as on every list. */
  app.get("/tools/merchants", async (req, res) => {
    res.json(
      await listResource<MerchantRow>(req, {
        db,
        spec: merchantResource,
        scope: MERCHANT_DIRECTORY_SCOPE,
        toRecord: toMerchantRecord,
      }),
    );
  });
  // Before /tools/merchants/:id, which would take "categories" for an id.
  app.get("/tools/merchants/categories", (req, res) => {
    const categories = merchantCategories();
    const flag = req.query.countTotal;
    const countTotal = flag !== undefined && flag !== "false";
    res.json({
      code: "success" as const,
      data: categories,
      metadata: countTotal ? { hasMore: false, totalCount: categories.length } : { hasMore: false },
    });
  });
  app.get("/tools/merchants/:id", async (req, res) => {
    res.json(ok(await getMerchant(db, req.params.id)));
  });
}
