import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
import { callService, type Caller } from "../../../test/support/internal-api";
import { INTERNAL, startHarness, type Harness } from "./harness";

const ELECTRICITY = "bp.11pALsZ5v2NiSC34t"; // Ikeja Electric prepaid: meterNumber + amount, fee 10000

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const business = (): Caller => ({ businessId: newId("business"), mode: "test" });
const bill = (amount = "150000") => ({ product: ELECTRICITY, inputs: { meterNumber: "45000000001", amount } });
const pay = (as: Caller, body: unknown, key: string) =>
  callService(h.http.url, INTERNAL, as, "POST", "/payments/bill", body, { "idempotency-key": key });
const paymentsOf = async (as: Caller) =>
  (await callService(h.http.url, INTERNAL, as, "GET", "/payments?limit=100")).body.data as unknown[];

describe("Idempotency-Key on POST /payments/bill", () => {
  it("a repeat answers the first payment again, marked replayed: one payment, one debit", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const first = await pay(as, bill(), "bill-1");
    expect(first).toMatchObject({ status: 201, body: { data: { status: "successful" } } });
    const again = await pay(as, bill(), "bill-1");
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers?.get("idempotent-replayed")).toBe("true");
    expect(await paymentsOf(as)).toHaveLength(1);
    expect(h.ledger.balance(account)).toBe(1_000_000 - 160_000);
    expect(await pay(as, bill("200000"), "bill-1")).toMatchObject({
      status: 422,
      body: { code: "idempotency-key-reused" },
    });
  });

  it("a retry after the process died between the payment's commit and its answer answers that payment", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const first = await pay(as, bill(), "bill-2");
    // What a process killed after the commit leaves: the key held by a request that never answered.
    await h.pg.db.query(
      `UPDATE bills.idempotency_keys SET answer_status = NULL, answer_body = NULL, claim = 'dead', claimed_until = now()
       WHERE business_id = $1 AND key = 'bill-2'`,
      [as.businessId],
    );
    const retry = await pay(as, bill(), "bill-2");
    expect(retry).toMatchObject({ status: 201, body: { data: { id: first.body.data.id, status: "successful" } } });
    expect(await paymentsOf(as)).toHaveLength(1);
    expect(h.ledger.balance(account)).toBe(1_000_000 - 160_000);
    const replay = await pay(as, bill(), "bill-2");
    expect(replay.headers?.get("idempotent-replayed")).toBe("true");
  });
});
