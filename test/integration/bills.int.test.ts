import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually";
import { HAS_INFRASTRUCTURE } from "./support/infrastructure";
import { paymentsPlatform } from "./support/payments-platform";

const ELECTRICITY = "bp.11pALsZ5v2NiSC34t";
const AIRTIME = "bp.11pALsZ5g3CTGabps";

/**
 * Bill payments with the real engine ledger over ledger-commands.v1 / ledger-results.v1: the bill-service and the
 * engine as separate processes against real Kafka and PostgreSQL. After every scenario the ledger balances and the
 * payment, its balance effect and its event can be seen through the API.
 */
describe.skipIf(!HAS_INFRASTRUCTURE)("bill payments against real Kafka and PostgreSQL", () => {
  const h = paymentsPlatform({ name: "Bills Ltd", signingKey: "bills-it-signing-key-0123456789" });
  const { api, available, booksBalance, visible } = h;

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  it("success: debited once through the engine's ledger, the token returned, payment.bill.completed delivered", async () => {
    const before = await available();
    const paid = await api("POST", "/payments/bill", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000000001", amount: "150000" },
      reference: "bill-ok",
    });
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({
      status: "successful",
      amount: 150_000,
      fees: 10_000,
      account: h.settlement,
      methodData: { output: { token: expect.any(String) } },
    });
    expect(await available()).toBe(before - 160_000);
    await visible(paid.body.data.id, "payment.bill.completed", ["bill-debit"]);
    await booksBalance();
  });

  it("a biller failure refunds the debit and delivers payment.bill.failed", async () => {
    const before = await available();
    const paid = await api("POST", "/payments/bill", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000001111", amount: "200000" },
    });
    expect(paid.body.data).toMatchObject({ status: "failed", failureReason: "biller-declined" });
    expect(await available()).toBe(before);
    await visible(paid.body.data.id, "payment.bill.failed", ["bill-debit", "bill-refund"]);
    await booksBalance();
  });

  it("insufficient funds: failed without a biller call; a reused reference returns the first payment and debits once", async () => {
    const before = await available();
    const broke = await api("POST", "/payments/bill", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000000002", amount: "50000000" },
    });
    expect(broke.body.data).toMatchObject({ status: "failed", failureReason: "insufficient-funds" });
    const { rowCount } = await h.db.query("SELECT 1 FROM bills.sandbox_orders WHERE reference = $1", [
      broke.body.data.id,
    ]);
    expect(rowCount).toBe(0);
    const first = await api("POST", "/payments/bill", {
      product: AIRTIME,
      inputs: { phoneNumber: "08031234567", amount: 10_000 },
      reference: "airtime-1",
    });
    const again = await Promise.all(
      [1, 2, 3].map(() =>
        api("POST", "/payments/bill", {
          product: AIRTIME,
          inputs: { phoneNumber: "08031234567", amount: 10_000 },
          reference: "airtime-1",
        }),
      ),
    );
    expect(again.map((r) => r.body.data.id)).toEqual([first.body.data.id, first.body.data.id, first.body.data.id]);
    expect(await available()).toBe(before - 10_000);
    await visible(broke.body.data.id, "payment.bill.failed", []);
    await booksBalance();
  });

  it("killed between the debit and the biller call, the bill-service pays once after restart: no money lost or taken twice", async () => {
    const before = await available();
    await h.platform.restart("bill-service", { CARDHOLD_FAILPOINTS: "bill-service:after-debit" });
    const attempt = await api("POST", "/payments/bill", {
      product: ELECTRICITY,
      inputs: { meterNumber: "45000000003", amount: "300000" },
      reference: "bill-crash",
    });
    expect(attempt.status).toBe(503);
    const { rows } = await h.db.query("SELECT id, status FROM bills.payments WHERE reference = 'bill-crash'");
    expect(rows).toEqual([{ id: expect.stringMatching(/^p\./), status: "processing" }]);
    await h.platform.restart("bill-service");
    const id = rows[0].id as string;
    const final = await eventually(async () => {
      const payment = (await api("GET", `/payments/${id}`)).body.data;
      expect(payment.status).toBe("successful");
      return payment;
    }, 30_000);
    expect(final.methodData.output.token).toEqual(expect.any(String));
    expect(await available()).toBe(before - 310_000);
    const orders = await h.db.query("SELECT 1 FROM bills.sandbox_orders WHERE reference = $1", [id]);
    expect(orders.rowCount).toBe(1);
    await visible(id, "payment.bill.completed", ["bill-debit"]);
    await booksBalance();
  });

  it("unknown product or customer and bad inputs are clear 4xx answers that move nothing", async () => {
    const before = await available();
    expect((await api("POST", "/payments/bill", { product: "bp.11111111111111111", inputs: {} })).status).toBe(404);
    expect(
      (
        await api("POST", "/payments/bill", {
          product: ELECTRICITY,
          inputs: { meterNumber: "45000000001", amount: "150000" },
          customer: "cus.11111111111111111",
        })
      ).status,
    ).toBe(404);
    const bad = await api("POST", "/payments/bill", {
      product: ELECTRICITY,
      inputs: { meterNumber: "12", amount: "1" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "inputs.amount",
      "inputs.meterNumber",
    ]);
    expect(await available()).toBe(before);
  });
});
