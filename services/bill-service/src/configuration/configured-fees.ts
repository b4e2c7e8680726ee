import type { Queryable } from "@cardhold/db";
import { AppError, mayStillArrive } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import type { ConfiguredFee } from "../domain/bill-fee";
import { findProjectedFee, isFeeProjected, type FeeRow } from "../store/fees.store";

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
    const fee = await findProjectedFee(db, scope, id);
    if (fee) return fee;
    const worthWaiting = Date.now() < deadline && mayStillArrive(id, PROJECTION_LAG_MS);
    if (!worthWaiting || (await isFeeProjected(db, id))) throw unknownFee(field, id);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export const configuredFeeOf = (row: FeeRow): ConfiguredFee => ({
  id: row.id,
  currency: row.currency,
  terms: { structure: row.structure, value: Number(row.value), cap: row.cap },
});
