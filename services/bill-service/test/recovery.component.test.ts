import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { call, eventsFor, startHarness, type Caller, type Harness } from "./harness";

const ELECTRICITY = "bp.11pALsZ5v2NiSC34t"; // fee 10000
const DSTV = "bp.11pALsZ669No5WrkT"; // fixed 1900000, fee 10000

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h, as, method, path, body);
const business = (): Caller => ({ businessId: newId("business"), mode: "test" });

/** Waits for the payment to reach a final status and exactly one event of the given kind. */
async function settles(as: Caller, id: string, status: string, kind: string) {
  const payment = await eventually(async () => {
    const res = await api(as, "GET", `/payments/${id}`);
    expect(res.body.data.status).toBe(status);
    return res.body.data;
  }, 10_000);
  const events = await eventually(() => {
    expect(eventsFor(h, id)).toHaveLength(1);
    return eventsFor(h, id);
  }, 5_000);
  expect(events[0]!.data.envelope).toMatchObject({
    event: kind,
    data: { id, status },
    metadata: { event: payment.events[0] },
  });
  return payment;
}

describe("a biller that does not answer at once", () => {
  it("pending: answers 202 request-accepted while processing, then completes on a later query", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 5_000_000);
    const res = await api(as, "POST", "/payments/bill", { product: DSTV, inputs: { smartcardNumber: "7000003333" } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      code: "request-accepted",
      data: {
        status: "processing",
        account,
        methodData: { billerReference: expect.stringMatching(/^SBX-/), output: null },
      },
    });
    const id = res.body.data.id;
    expect(h.ledger.balance(account)).toBe(5_000_000 - 1_910_000);
    const payment = await settles(as, id, "successful", "payment.bill.completed");
    expect(payment.methodData.output).toEqual({ receiptNumber: expect.stringMatching(/^RCT-/) });
    expect(h.biller.pays.get(id)).toBe(1);
    expect(h.biller.queries.get(id)).toBeGreaterThanOrEqual(1);
    expect(h.ledger.debitsFor(id)).toBe(1);
    expect(h.ledger.balance(account)).toBe(5_000_000 - 1_910_000);
  });

  it("pending, then declined: refunds and fails", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 5_000_000);
    const res = await api(as, "POST", "/payments/bill", { product: DSTV, inputs: { smartcardNumber: "7000004444" } });
    expect(res.status).toBe(202);
    const payment = await settles(as, res.body.data.id, "failed", "payment.bill.failed");
    expect(payment.failureReason).toBe("biller-declined");
    expect(h.ledger.balance(account)).toBe(5_000_000);
  });

  it("slower than the biller timeout: the payment is resolved by a query, and the biller is paid once", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const res = await api(as, "POST", "/payments/bill", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000002222", amount: 150_000 },
    });
    expect([201, 202]).toContain(res.status);
    const id = res.body.data.id;
    const payment = await settles(as, id, "successful", "payment.bill.completed");
    expect(payment.methodData.output.token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(h.biller.pays.get(id)).toBe(1);
    expect(h.biller.queries.get(id)).toBeGreaterThanOrEqual(1);
    expect(h.ledger.balance(account)).toBe(840_000);
  });
});

describe("crashes and lost messages", () => {
  it("a restart between the debit and the biller call: the new instance pays the biller once, money moves once", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    h.ledger.hold();
    const res = await api(as, "POST", "/payments/bill", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000000001", amount: 150_000 },
    });
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe("debiting");
    const id = res.body.data.id;
    expect(h.ledger.balance(account)).toBe(840_000);
    await h.restart(async () => {
      // The stopped instance records the debit (its consumer still runs until the bus stops), but its worker is gone.
      await h.ledger.release();
      const { rows } = await h.pg.db.query("SELECT status, biller_status FROM bills.payments WHERE id = $1", [id]);
      expect(rows).toEqual([{ status: "processing", biller_status: "not-called" }]);
      expect(h.biller.pays.get(id)).toBeUndefined();
    });
    const payment = await settles(as, id, "successful", "payment.bill.completed");
    expect(payment.account).toBe(account);
    expect(h.biller.pays.get(id)).toBe(1);
    expect(h.ledger.debitsFor(id)).toBe(1);
    expect(h.ledger.balance(account)).toBe(840_000);
  });

  it("a restart while waiting for the debit's result: the command is sent again and answered with the first result", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    h.ledger.dropResults(true);
    const res = await api(as, "POST", "/payments/bill", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000001111", amount: 150_000 },
    });
    expect(res.body.data.status).toBe("debiting");
    const id = res.body.data.id;
    await h.restart();
    h.ledger.dropResults(false);
    const payment = await settles(as, id, "failed", "payment.bill.failed");
    expect(payment.failureReason).toBe("biller-declined");
    const debits = h.ledger.commandsFor(id).filter((c) => c.type === "ledger.debit");
    expect(debits.length).toBeGreaterThanOrEqual(2);
    expect(new Set(debits.map((c) => c.data.commandId))).toEqual(new Set([`${id}:debit`]));
    expect(h.ledger.debitsFor(id)).toBe(1);
    expect(h.ledger.balance(account)).toBe(1_000_000);
  });

  it("a result for a command the service did not send is skipped", async () => {
    const as = business();
    await h.bus.publish([
      {
        topic: "ledger-results.v1",
        key: "x",
        value: {
          type: "ledger.result",
          businessId: as.businessId,
          mode: "test",
          occurredAt: new Date().toISOString(),
          data: {
            commandId: `${newId("payment")}:debit`,
            command: "ledger.debit",
            status: "succeeded",
            failureReason: null,
            account: null,
            amount: 1,
            currency: "NGN",
            availableAfter: 0,
          },
        },
      },
      { topic: "ledger-results.v1", key: "y", value: { type: "something-else" } },
    ]);
    await h.bus.drained(2_000); // a handler that threw would be retried and keep the bus behind
    expect((await api(as, "GET", "/payments?countTotal")).body.metadata.totalCount).toBe(0);
  });
});
