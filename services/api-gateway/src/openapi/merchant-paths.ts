/** The merchant tools (services/authorization-engine/src/merchants): the sandbox's merchant directory and categories. */
import { operation, read } from "./operations";
import { countTotal, listParameters } from "./parameters";
import { merchantCategoryRecord, merchantRecord } from "./records/merchants";
import { page, ref, type Paths } from "./schema";

const AT = "2025-01-06T09:00:00.000Z";

const skywayAir = {
  id: "mch.11nc8z4WBDwHYCAgb",
  object: "merchant",
  name: "Skyway Air",
  mcc: "4511",
  category: "airlines",
  city: "Lagos",
  country: "NG",
  createdAt: AT,
  updatedAt: AT,
};

export function merchantPaths(): Paths {
  return {
    "/tools/merchants": {
      get: operation({
        summary: "Merchants",
        description:
          "The sandbox's merchant directory: the same for every business, in test and live mode. The list query " +
          "language as on every list (fields: id, name, mcc, category, city, country, createdAt, updatedAt).",
        parameters: listParameters(),
        returns: "A page of the matching merchants, newest first unless sorted",
        schema: page(ref(merchantRecord)),
        example: { code: "success", data: [skywayAir], metadata: { hasMore: false } },
      }),
    },
    "/tools/merchants/categories": {
      get: operation({
        summary: "Merchant categories: every name card controls take, with its MCC ranges",
        parameters: [countTotal],
        returns: "Every category",
        schema: page(ref(merchantCategoryRecord)),
        example: {
          code: "success",
          data: [{ object: "merchant.category", name: "airlines", mccRanges: ["3000-3350", "4511"] }],
          metadata: { hasMore: false },
        },
      }),
    },
    "/tools/merchants/{id}": {
      get: read("One merchant", merchantRecord, { example: { code: "success", data: skywayAir } }),
    },
  };
}
