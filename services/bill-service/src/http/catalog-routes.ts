import type { Express, Request } from "express";
import { CURRENCIES } from "@cardhold/contracts";
import type { Db } from "@cardhold/db";
import { badRequest, listResource, notFound, requestContext, type FieldProblem } from "@cardhold/platform";
import { CATEGORY_IDS } from "../domain/bill-product";
import { CATEGORIES, findProduct } from "../domain/catalog";
import { billProductResource, catalogQueryable, type BillProductRow } from "../store/bill-products.store";

/** The plain filters the product list took first (`?category=electricity`), accepted beside the query language. */
const PLAIN_FILTERS: Record<"category" | "currency" | "biller", readonly string[]> = {
  category: CATEGORY_IDS,
  currency: CURRENCIES,
  biller: [],
};

/** The plain filters given, as fixed conditions of the list (undefined: none); a value that cannot match is a 400. */
function plainFilters(req: Request): Record<string, string> | undefined {
  const problems: FieldProblem[] = [];
  const fixed: Record<string, string> = {};
  for (const [name, allowed] of Object.entries(PLAIN_FILTERS)) {
    const value = req.query[name];
    if (value === undefined) continue;
    if (typeof value !== "string") problems.push({ path: name, message: "must be given once, as text" });
    else if (allowed.length > 0 && !allowed.includes(value))
      problems.push({ path: name, message: `must be one of ${allowed.join(", ")}` });
    else fixed[name] = value;
  }
  if (problems.length > 0) throw badRequest(`Invalid query: ${problems.map((p) => p.path).join(", ")}`, problems);
  return Object.keys(fixed).length > 0 ? fixed : undefined;
}

export function catalogRoutes(app: Express, db: Db): void {
  app.get("/tools/bills/categories", (req, res) => {
    const flag = req.query.countTotal;
    const countTotal = flag !== undefined && flag !== "false";
    res.json({
      code: "success" as const,
      data: CATEGORIES,
      metadata: countTotal ? { hasMore: false, totalCount: CATEGORIES.length } : { hasMore: false },
    });
  });

  /** The list query language (filter, sort, select, limit, after …) as on every list, and the plain filters. */
  app.get("/tools/bills/products", async (req, res) => {
    const scope = requestContext(req);
    res.json(
      await listResource<BillProductRow>(req, {
        db: catalogQueryable(db, scope),
        spec: billProductResource,
        scope,
        toRecord: (row) => row.record,
        within: plainFilters(req),
      }),
    );
  });

  app.get("/tools/bills/products/:id", (req, res) => {
    const product = findProduct(req.params.id);
    if (!product) throw notFound("Bill product", req.params.id);
    res.json({ code: "success", data: product });
  });
}
