import type { Queryable } from "@cardhold/db";
import { AppError, mayStillArrive } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import type { ConfiguredFee } from "../domain/bill-fee";
import { findAnyProjectedFee, type FeeRow } from "../store/fees.store";

/** How long after a fee is made its fees.v1 message may still be on its way here. */
const PROJECTION_LAG_MS = 10_000;
const POLL_MS = 100;

const unknownFee = (field: string, id: string) =>
  new AppError(404, "not-found", `${field}: fee ${id} was not found`, [{ path: field, message: "no such fee" }]);

/**
 * The fee a configuration names (`field`), from the fees.v1 projection. A fee made moments ago may not be there yet:
 * a miss is read again for up to `waitMs` while the id is recent and no other business's.
 */
export async function requireProjectedFee(
  db: Queryable,
  scope: Scope,
  id: string,
  field: string,
  waitMs: number,
): Promise<FeeRow> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    // One read: with two (this business's fee, then anyone's), a fee projected between them was taken for another
    // business's and refused.
    const fee = await findAnyProjectedFee(db, id);
    if (fee) {
      if (fee.business_id !== scope.businessId || fee.mode !== scope.mode) throw unknownFee(field, id);
      const { business_id: _business, mode: _mode, ...row } = fee;
      return row;
    }
    if (Date.now() >= deadline || !mayStillArrive(id, PROJECTION_LAG_MS)) throw unknownFee(field, id);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export const configuredFeeOf = (row: FeeRow): ConfiguredFee => ({
  id: row.id,
  currency: row.currency,
  terms: { structure: row.structure, value: Number(row.value), cap: row.cap },
});
