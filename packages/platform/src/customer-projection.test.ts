import { describe, expect, it } from "vitest";
import type { Queryable } from "@cardhold/db";
import { findProjectedCustomers } from "./customer-projection";
import { newId } from "./ids";

const scope = { businessId: "bus.a", mode: "test" };

/** A projection table as a list of rows; `arrive` rows appear after the given number of statements. */
function projection(
  rows: Array<{ id: string; business_id: string; mode: string }>,
  arrive: { afterStatements: number; row: (typeof rows)[number] }[] = [],
) {
  let statements = 0;
  const db: Queryable = {
    async query(text: string, values?: unknown[]) {
      statements += 1;
      for (const a of arrive) if (statements > a.afterStatements && !rows.includes(a.row)) rows.push(a.row);
      const ids = values![0] as string[];
      const scoped = values!.length === 3;
      const hits = rows.filter(
        (r) => ids.includes(r.id) && (!scoped || (r.business_id === values![1] && r.mode === values![2])),
      );
      return {
        rows: hits.map((r) => ({ id: r.id, name: "N", status: "active", record: null })),
        rowCount: hits.length,
      } as never;
    },
  };
  return { db, statements: () => statements };
}

describe("findProjectedCustomers", () => {
  it("finds a customer the projection holds", async () => {
    const id = newId("customer");
    const { db } = projection([{ id, business_id: "bus.a", mode: "test" }]);
    expect((await findProjectedCustomers(db, "s", scope, [id], 1_000)).map((c) => c.id)).toEqual([id]);
  });

  it("finds a customer that reaches the projection between its read and its check (no 404 for a customer just made)", async () => {
    const id = newId("customer");
    const { db } = projection([], [{ afterStatements: 1, row: { id, business_id: "bus.a", mode: "test" } }]);
    expect((await findProjectedCustomers(db, "s", scope, [id], 1_000)).map((c) => c.id)).toEqual([id]);
  });

  it("waits for a customer made a moment ago until it arrives", async () => {
    const id = newId("customer");
    const { db } = projection([], [{ afterStatements: 5, row: { id, business_id: "bus.a", mode: "test" } }]);
    expect((await findProjectedCustomers(db, "s", scope, [id], 2_000)).map((c) => c.id)).toEqual([id]);
  });

  it("does not wait for another business's customer, and does not return it", async () => {
    const id = newId("customer");
    const { db, statements } = projection([{ id, business_id: "bus.b", mode: "test" }]);
    const started = Date.now();
    expect(await findProjectedCustomers(db, "s", scope, [id], 2_000)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(500);
    expect(statements()).toBe(3);
  });

  it("does not wait for an id that is not recent", async () => {
    const old = `cus.${"1".repeat(17)}`;
    const { db, statements } = projection([]);
    expect(await findProjectedCustomers(db, "s", scope, [old], 2_000)).toEqual([]);
    expect(statements()).toBe(2);
  });
});
