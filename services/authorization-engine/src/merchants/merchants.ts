import type { Queryable } from "@cardhold/db";
import { notFound } from "@cardhold/platform";
import { MCC_CATEGORIES, type MccCategory } from "../domain/mcc-categories";
import { findMerchant } from "../store/merchants.store";
import { toMerchantCategoryRecord, toMerchantRecord } from "./merchant-records";

/** A merchant of the directory; the directory is every business's, so no scope narrows the lookup. */
export async function getMerchant(db: Queryable, id: string) {
  const merchant = await findMerchant(db, id);
  if (!merchant) throw notFound("Merchant", id);
  return toMerchantRecord(merchant);
}

/** Every category the allowedCategories / blockedCategories controls accept, with its MCC ranges. */
export const merchantCategories = () =>
  (Object.entries(MCC_CATEGORIES) as Array<[MccCategory, string]>).map(([name, mccList]) =>
    toMerchantCategoryRecord(name, mccList),
  );
