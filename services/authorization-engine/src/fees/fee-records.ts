import { present, type Json } from "../record-shape";
import type { FeeRow } from "../store/fees.store";
import type { FeeTerms } from "../domain/fees";

export function toFeeRecord(row: FeeRow): Json {
  return present({
    id: row.id,
    object: "fee",
    name: row.name,
    description: row.description,
    structure: row.structure,
    currency: row.currency,
    value: Number(row.value),
    cap: row.cap,
    account: row.account_id,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}

export const feeTermsOf = (row: Pick<FeeRow, "structure" | "value" | "cap">): FeeTerms => ({
  structure: row.structure,
  value: Number(row.value),
  cap: row.cap,
});
