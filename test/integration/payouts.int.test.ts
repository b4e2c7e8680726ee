import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually";
import { HAS_INFRASTRUCTURE } from "./support/infrastructure";
import { paymentsPlatform } from "./support/payments-platform";

/** The bill-service README's sandbox rail test numbers at GTBank (000013): digits 6–9 choose what happens. */
const CREDITED = "0123456785";
const DECLINED = "0123455551";

const payout = (accountNumber: string, amount: number, reference?: string) => ({
  method: "bank-transfer",
  options: { accountNumber, bankCode: "000013", narration: "Integration payout" },
  currency: "NGN",
  amount,
  ...(reference && { reference }),
});

/**
 * Payouts with the real engine ledger over ledger-commands.v1 / ledger-results.v1: the bill-service and the engine as
 * separate processes against real Kafka and PostgreSQL, the sandbox bank rail behind the bill-service. After every
 * scenario the ledger balances, and the payout, its balance effect and its event can be seen through the API.
 */
describe.skipIf(!HAS_INFRASTRUCTURE)("payouts against real Kafka and PostgreSQL", () => {
  const h = paymentsPlatform({ name: "Payouts Ltd", signingKey: "payouts-it-signing-key-0123456789" });
  const { api, available, booksBalance, visible } = h;
  /** How many times the sandbox rail was asked to send this payout (0: never). */
  const railSends = async (paymentId: string) => {
    const { rows } = await h.db.query("SELECT sends FROM bills.sandbox_transfers WHERE reference = $1", [paymentId]);
    return (rows[0]?.sends as number | undefined) ?? 0;
  };

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  it("success: debited once through the engine's ledger, credited by the rail, payment.payout.completed delivered", async () => {
    const before = await available();
    const paid = await api("POST", "/payments/payouts", payout(CREDITED, 150_000, "payout-ok"));
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({
      type: "pay-out",
      status: "successful",
      amount: 150_000,
      account: h.settlement,
      method: "bank-transfer",
      methodData: { bankTransfer: { accountNumber: CREDITED, bankCode: "000013", accountName: expect.any(String) } },
    });
    expect(await available()).toBe(before - 150_000);
    expect(await railSends(paid.body.data.id)).toBe(1);
    await visible(paid.body.data.id, "payment.payout.completed", ["bill-debit"]);
    const again = await api("POST", "/payments/payouts", payout(CREDITED, 150_000, "payout-ok"));
    expect(again.body.data.id).toBe(paid.body.data.id);
    expect(await available()).toBe(before - 150_000);
    await booksBalance();
  });

  it("a rail failure refunds the debit and delivers payment.payout.failed", async () => {
    const before = await available();
    const paid = await api("POST", "/payments/payouts", payout(DECLINED, 200_000));
    expect(paid.body.data).toMatchObject({ status: "failed", failureReason: "bank-declined" });
    expect(await available()).toBe(before);
    await visible(paid.body.data.id, "payment.payout.failed", ["bill-debit", "bill-refund"]);
    await booksBalance();
  });

  it("killed between the debit and the rail call, the bill-service sends once after restart: no money lost or paid twice", async () => {
    const before = await available();
    await h.platform.restart("bill-service", { CARDHOLD_FAILPOINTS: "bill-service:payout-after-debit" });
    const attempt = await api("POST", "/payments/payouts", payout(CREDITED, 300_000, "payout-crash"));
    expect(attempt.status).toBe(503);
    const { rows } = await h.db.query("SELECT id, status FROM bills.payments WHERE reference = 'payout-crash'");
    expect(rows).toEqual([{ id: expect.stringMatching(/^p\./), status: "processing" }]);
    const id = rows[0].id as string;
    expect(await railSends(id)).toBe(0);
    expect(await available()).toBe(before - 300_000);
    await h.platform.restart("bill-service");
    const final = await eventually(async () => {
      const payment = (await api("GET", `/payments/${id}`)).body.data;
      expect(payment.status).toBe("successful");
      return payment;
    }, 30_000);
    expect(final.methodData.bankTransfer.sessionId).toMatch(/^\d{30}$/);
    expect(await available()).toBe(before - 300_000);
    expect(await railSends(id)).toBe(1);
    await visible(id, "payment.payout.completed", ["bill-debit"]);
    const retried = await api("POST", "/payments/payouts", payout(CREDITED, 300_000, "payout-crash"));
    expect(retried.body.data).toMatchObject({ id, status: "successful" });
    expect(await railSends(id)).toBe(1);
    expect(await available()).toBe(before - 300_000);
    await booksBalance();
  });

  it("bad requests are clear 4xx answers that move nothing", async () => {
    const before = await available();
    const wrongDigit = await api("POST", "/payments/payouts", payout("0123456784", 1_000));
    expect(wrongDigit).toMatchObject({ status: 400, body: { errors: [{ path: "options.accountNumber" }] } });
    const unsupported = await api("POST", "/payments/payouts", { ...payout(CREDITED, 1_000), method: "fx-transfer" });
    expect(unsupported).toMatchObject({ status: 422, body: { code: "method-not-supported" } });
    expect((await api("POST", "/payments/payouts", payout(CREDITED, 0))).status).toBe(400);
    expect(await available()).toBe(before);
  });
});
