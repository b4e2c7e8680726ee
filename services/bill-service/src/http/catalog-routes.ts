import type { Express, Request } from "express";
import { CURRENCIES } from "@cardhold/contracts";
import { badRequest, notFound, type FieldProblem } from "@cardhold/platform";
import { CATEGORY_IDS } from "../domain/bill-product";
import { CATEGORIES, filterProducts, findProduct, type ProductFilter } from "../domain/catalog";

const ALLOWED: Record<keyof ProductFilter, readonly string[]> = {
  category: CATEGORY_IDS,
  currency: CURRENCIES,
  biller: [],
};
const FLAGS = ["countTotal"];

/** The catalog is small and static: filters are plain query parameters; anything else is refused, not ignored. */
function productFilter(req: Request): { filter: ProductFilter; countTotal: boolean } {
  const problems: FieldProblem[] = [];
  const filter: ProductFilter = {};
  for (const [name, value] of Object.entries(req.query)) {
    if (FLAGS.includes(name)) continue;
    if (!Object.hasOwn(ALLOWED, name)) {
      problems.push({
        path: name,
        message: `is not a parameter of this list (use ${[...Object.keys(ALLOWED), ...FLAGS].join(", ")})`,
      });
      continue;
    }
    const allowed = ALLOWED[name as keyof ProductFilter];
    if (typeof value !== "string") problems.push({ path: name, message: "must be given once, as text" });
    else if (allowed.length > 0 && !allowed.includes(value))
      problems.push({ path: name, message: `must be one of ${allowed.join(", ")}` });
    else filter[name as keyof ProductFilter] = value;
  }
  if (problems.length > 0) throw badRequest(`Invalid query: ${problems.map((p) => p.path).join(", ")}`, problems);
  const flag = req.query.countTotal;
  return { filter, countTotal: flag !== undefined && flag !== "false" };
}

const listBody = <T>(data: readonly T[], countTotal: boolean) => ({
  code: "success" as const,
  data,
  metadata: countTotal ? { hasMore: false, totalCount: data.length } : { hasMore: false },
});

export function catalogRoutes(app: Express): void {
  app.get("/tools/bills/categories", (req, res) => {
    const flag = req.query.countTotal;
    res.json(listBody(CATEGORIES, flag !== undefined && flag !== "false"));
  });

  app.get("/tools/bills/products", (req, res) => {
    const { filter, countTotal } = productFilter(req);
    res.json(listBody(filterProducts(filter), countTotal));
  });

  app.get("/tools/bills/products/:id", (req, res) => {
    const product = findProduct(req.params.id);
    if (!product) throw notFound("Bill product", req.params.id);
    res.json({ code: "success", data: product });
  });
}
