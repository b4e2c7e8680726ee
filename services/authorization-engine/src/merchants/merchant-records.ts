import type { Json } from "../record-shape";
import type { MccCategory } from "../domain/mcc-categories";
import type { MerchantRow } from "../store/merchants.store";

export function toMerchantRecord(row: MerchantRow): Json {
  return {
    id: row.id,
    object: "merchant",
    name: row.name,
    mcc: row.mcc,
    category: row.category,
    city: row.city,
    country: row.country,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A category as controls name it, with its MCCs: each a code or an inclusive range, as allowedMcc takes them. */
export function toMerchantCategoryRecord(name: MccCategory, mccList: string): Json {
  return { object: "merchant.category", name, mccRanges: mccList.split(",").map((range) => range.trim()) };
}
