import { describe, expect, it } from "vitest";
import type { Queryable } from "@cardhold/db";
import { newId } from "@cardhold/platform";
import { requireProjectedFee } from "./configured-fees";

const scope = { businessId: newId("business"), mode: "test" };
const rowOf = (id: string, businessId = scope.businessId) => ({
  id,
  name: "Bill fee",
  structure: "flat",
  currency: "NGN",
  value: "100",
  cap: null,
  account: newId("account"),
  business_id: businessId,
  mode: "test",
});

/** A projection that holds nothing for the first `misses` reads, then `row`; counts the reads. */
function projection(misses: number, row: Record<string, unknown>) {
  let reads = 0;
  const db: Queryable = {
    query: async () => {
      reads += 1;
      const rows = reads > misses ? [row] : [];
      return { rows, rowCount: rows.length } as never;
    },
  };
  return { db, reads: () => reads };
}

describe("the fee a configuration names", () => {
  it("is waited for while its fees.v1 message is on its way, and returned once it lands", async () => {
    // It lands right after the first read: two reads per look (this business's, then anyone's) took it for another
    // business's fee and refused it.
    const id = newId("fee");
    const { db, reads } = projection(1, rowOf(id));
    const fee = await requireProjectedFee(db, scope, id, "fees.billPayment", 5_000);
    expect(fee).toMatchObject({ id, currency: "NGN", value: "100" });
    expect(fee).not.toHaveProperty("business_id");
    expect(reads()).toBe(2);
  });

  it("is refused at once when it is another business's", async () => {
    const id = newId("fee");
    const { db, reads } = projection(0, rowOf(id, newId("business")));
    await expect(requireProjectedFee(db, scope, id, "fees.billPayment", 5_000)).rejects.toMatchObject({
      statusCode: 404,
      code: "not-found",
    });
    expect(reads()).toBe(1);
  });

  it("is refused once the wait is over", async () => {
    const id = newId("fee");
    const { db } = projection(Infinity, rowOf(id));
    const started = Date.now();
    await expect(requireProjectedFee(db, scope, id, "fees.billPayment", 250)).rejects.toMatchObject({
      statusCode: 404,
      code: "not-found",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
