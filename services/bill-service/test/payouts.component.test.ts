import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS, type FeeCreatedMessage, type Mode } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { callService } from "../../../test/support/internal-api";
import { announceCustomer, call, eventsFor, INTERNAL, startHarness, type Caller, type Harness } from "./harness";

/** The README's sandbox rail test numbers at GTBank (058 / 000013): digits 6–9 choose what happens. */
const ACCOUNT = {
  credited: "0123456785", // Fatima Bello
  slow: "0123422229",
  pendingThenCredited: "0123433333",
  pendingThenFailed: "0123444447",
  failed: "0123455551",
  noSuchAccount: "0123400001",
  bankUnreachable: "0123411115",
} as const;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h, as, method, path, body);
const business = (mode: Mode = "test"): Caller => ({ businessId: newId("business"), mode });
const payout = (accountNumber: string = ACCOUNT.credited, extra: Record<string, unknown> = {}) => ({
  method: "bank-transfer",
  options: { accountNumber, bankCode: "000013" },
  currency: "NGN",
  amount: 150_000,
  ...extra,
});
const payOut = (as: Caller, body: unknown) => api(as, "POST", "/payments/payouts", body);
const countPayments = async (as: Caller) =>
  (await api(as, "GET", "/payments?countTotal")).body.metadata.totalCount as number;

/** A fee on fees.v1 as the authorization engine announces it. */
async function announceFee(as: Caller, value: number, currency: "NGN" | "USD" = "NGN"): Promise<string> {
  const id = newId("fee");
  const now = new Date().toISOString();
  const message: FeeCreatedMessage = {
    type: "fee.created",
    businessId: as.businessId,
    mode: as.mode,
    occurredAt: now,
    data: {
      id,
      name: "Transfer fee",
      account: newId("account"),
      createdAt: now,
      structure: "flat",
      value,
      cap: null,
      currency,
    },
  };
  await h.bus.publish([{ topic: TOPICS.fees, key: id, value: message, id: newId("message") }]);
  return id;
}

/** Waits for the payout's final status and its one event of the given kind, which carries the payout as GET shows it. */
async function settles(as: Caller, id: string, status: string, kind: string) {
  const payment = await eventually(async () => {
    const res = await api(as, "GET", `/payments/${id}`);
    expect(res.body.data.status).toBe(status);
    return res.body.data;
  }, 10_000);
  const [event] = await eventually(() => {
    expect(eventsFor(h, id)).toHaveLength(1);
    return eventsFor(h, id);
  }, 5_000);
  expect(event).toMatchObject({ type: "event.published", businessId: as.businessId, mode: as.mode });
  expect(event!.data.envelope).toEqual({
    event: kind,
    data: payment,
    metadata: { sentAt: expect.any(String), event: payment.events[0] },
  });
  return payment;
}

describe("POST /payments/payouts", () => {
  it("takes the documented request: debits once, credits the bank account, answers 201 and announces payment.payout.completed", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const customer = await announceCustomer(h, as, "Ngozi Obi");
    const res = await payOut(as, {
      method: "bank-transfer",
      options: {
        method: "nip",
        accountNumber: ACCOUNT.credited,
        bankCode: "000013",
        narration: "Invoice 7",
        note: "May",
      },
      currency: "NGN",
      amount: 150_000,
      customer,
      reference: "payout-1",
      metadata: { invoice: 7 },
    });
    expect(res.status).toBe(201);
    expect(res.body.code).toBe("success");
    const paid = res.body.data;
    expect(paid).toEqual({
      id: expect.stringMatching(/^p\.[1-9A-HJ-NP-Za-km-z]{17}$/),
      object: "payment",
      type: "pay-out",
      status: "successful",
      amount: 150_000,
      currency: "NGN",
      fees: 0,
      feeBreakdown: [],
      account,
      fundingSource: account,
      method: "bank-transfer",
      methodData: {
        bankTransfer: {
          accountNumber: ACCOUNT.credited,
          bankCode: "000013",
          bankName: "Guaranty Trust Bank",
          accountName: "Fatima Bello",
          sourceAccountName: "Ngozi Obi",
          narration: "Invoice 7",
          note: "May",
          sessionId: expect.stringMatching(/^999999\d{24}$/),
        },
      },
      customer,
      reference: "payout-1",
      failureReason: null,
      events: [expect.stringMatching(/^evt\./)],
      metadata: { invoice: 7 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(h.ledger.balance(account)).toBe(850_000);
    expect(h.ledger.commandsFor(paid.id).map((c) => [c.type, c.data.commandId])).toEqual([
      ["ledger.debit", `${paid.id}:debit`],
    ]);
    expect(h.ledger.commandsFor(paid.id)[0]!.data).toMatchObject({ account: null, currency: "NGN", amount: 150_000 });
    expect(h.rail.sends.get(paid.id)).toBe(1);
    await settles(as, paid.id, "successful", "payment.payout.completed");
    expect((await api(as, "GET", `/payments/${paid.id}`)).body).toEqual({ code: "success", data: paid });
  });

  it("takes the bank by its CBN code too, and answers with its NIP code; the narration defaults to the reference", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const res = await payOut(as, {
      ...payout(),
      options: { accountNumber: ACCOUNT.credited, bankCode: "058" },
      reference: "r-58",
    });
    expect(res.body.data.methodData.bankTransfer).toMatchObject({
      bankCode: "000013",
      bankName: "Guaranty Trust Bank",
      sourceAccountName: null,
      narration: "r-58",
      note: null,
    });
  });

  it("charges the named fee, else the configured fees.bankTransfer, and debits debitSource, else payOutAccount", async () => {
    const as = business();
    const main = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const payOutAccount = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000, { isDefault: false });
    const wallet = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000, { isDefault: false });
    const [configuredFee, namedFee] = [await announceFee(as, 2_500), await announceFee(as, 1_000)];
    const configured = await api(as, "PUT", "/tools/configuration/payment", {
      payOutAccount,
      fees: { bankTransfer: configuredFee },
    });
    expect(configured.status).toBe(200);

    const byDefaults = (await payOut(as, payout())).body.data;
    expect(byDefaults).toMatchObject({
      status: "successful",
      fees: 2_500,
      feeBreakdown: [{ amount: 2_500, group: "bank-transfer", type: "flat", fee: configuredFee }],
      account: payOutAccount,
      fundingSource: payOutAccount,
    });
    expect(h.ledger.balance(payOutAccount)).toBe(1_000_000 - 152_500);

    const named = (await payOut(as, payout(ACCOUNT.credited, { fee: namedFee, debitSource: wallet }))).body.data;
    expect(named).toMatchObject({ fees: 1_000, feeBreakdown: [{ fee: namedFee }], account: wallet });
    expect(h.ledger.balance(wallet)).toBe(1_000_000 - 151_000);
    expect(h.ledger.balance(main)).toBe(1_000_000);

    const usdFee = await announceFee(as, 100, "USD");
    const foreign = await payOut(as, payout(ACCOUNT.credited, { fee: usdFee }));
    expect(foreign).toMatchObject({
      status: 400,
      body: { errors: [{ path: "fee", message: expect.stringMatching(/USD/) }] },
    });
    const unknown = await payOut(as, payout(ACCOUNT.credited, { fee: newId("fee") }));
    expect(unknown).toMatchObject({ status: 404, body: { errors: [{ path: "fee" }] } });
  });
});

describe("what the bank rail answers", () => {
  it("a failure refunds the debit: failed with bank-declined, the balance whole, payment.payout.failed", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const res = await payOut(as, payout(ACCOUNT.failed));
    expect(res.status).toBe(201);
    const failed = res.body.data;
    expect(failed).toMatchObject({ status: "failed", failureReason: "bank-declined", account });
    expect(h.ledger.balance(account)).toBe(1_000_000);
    expect(h.ledger.commandsFor(failed.id).map((c) => c.type)).toEqual(["ledger.debit", "ledger.refund"]);
    expect(h.rail.sends.get(failed.id)).toBe(1);
    await settles(as, failed.id, "failed", "payment.payout.failed");
  });

  it("pending, then settled: 202 request-accepted while processing, then successful on a later query", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const res = await payOut(as, payout(ACCOUNT.pendingThenCredited));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      code: "request-accepted",
      data: { status: "processing", methodData: { bankTransfer: { sessionId: expect.stringMatching(/^999999/) } } },
    });
    const id = res.body.data.id;
    await settles(as, id, "successful", "payment.payout.completed");
    expect(h.rail.sends.get(id)).toBe(1);
    expect(h.rail.queries.get(id)).toBeGreaterThanOrEqual(1);
    expect(h.ledger.debitsFor(id)).toBe(1);
    expect(h.ledger.balance(account)).toBe(850_000);
  });

  it("pending, then failed: refunded", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const res = await payOut(as, payout(ACCOUNT.pendingThenFailed));
    expect(res.status).toBe(202);
    const payment = await settles(as, res.body.data.id, "failed", "payment.payout.failed");
    expect(payment.failureReason).toBe("bank-declined");
    expect(h.ledger.balance(account)).toBe(1_000_000);
  });

  it("no answer within the timeout: the rail is asked again (queried, not sent again) and the money moves once", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const res = await payOut(as, payout(ACCOUNT.slow));
    expect([201, 202]).toContain(res.status);
    const id = res.body.data.id;
    await settles(as, id, "successful", "payment.payout.completed");
    expect(h.rail.sends.get(id)).toBe(1);
    expect(h.rail.queries.get(id)).toBeGreaterThanOrEqual(1);
    const { rows } = await h.pg.db.query("SELECT sends FROM bills.sandbox_transfers WHERE reference = $1", [id]);
    expect(rows).toEqual([{ sends: 1 }]);
    expect(h.ledger.debitsFor(id)).toBe(1);
    expect(h.ledger.balance(account)).toBe(850_000);
  });

  it("insufficient funds: failed by the ledger, the rail never asked", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 100_000);
    const res = await payOut(as, payout());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: "failed", failureReason: "insufficient-funds", account: null });
    expect(h.rail.sends.get(res.body.data.id)).toBeUndefined();
    expect(h.ledger.balance(account)).toBe(100_000);
    await settles(as, res.body.data.id, "failed", "payment.payout.failed");
  });

  it("a restart between the debit and the rail call: the new instance sends once, money moves once", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    h.ledger.hold();
    const res = await payOut(as, payout());
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe("debiting");
    const id = res.body.data.id;
    await h.restart(async () => {
      await h.ledger.release();
      const { rows } = await h.pg.db.query("SELECT status, biller_status FROM bills.payments WHERE id = $1", [id]);
      expect(rows).toEqual([{ status: "processing", biller_status: "not-called" }]);
      expect(h.rail.sends.get(id)).toBeUndefined();
    });
    await settles(as, id, "successful", "payment.payout.completed");
    expect(h.rail.sends.get(id)).toBe(1);
    expect(h.ledger.debitsFor(id)).toBe(1);
    expect(h.ledger.balance(account)).toBe(850_000);
  });
});

describe("bad payouts are clear 4xx answers that record nothing and move nothing", () => {
  it.each<[string, unknown, number, string, string[]]>([
    ["a wrong check digit", payout("0123456784"), 400, "invalid-request", ["options.accountNumber"]],
    [
      "an unknown bank",
      { ...payout(), options: { accountNumber: ACCOUNT.credited, bankCode: "999999" } },
      400,
      "invalid-request",
      ["options.bankCode"],
    ],
    [
      "no bank account",
      { ...payout(), options: {} },
      400,
      "invalid-request",
      ["options.accountNumber", "options.bankCode"],
    ],
    ["amount 0", { ...payout(), amount: 0 }, 400, "invalid-request", ["amount"]],
    ["an amount as text", { ...payout(), amount: "150000" }, 400, "invalid-request", ["amount"]],
    ["an unknown method", { ...payout(), method: "cash" }, 400, "invalid-request", ["method"]],
    ["no options", { method: "bank-transfer", currency: "NGN", amount: 100 }, 400, "invalid-request", ["options"]],
    ["a method not supported", { ...payout(), method: "transfer" }, 422, "method-not-supported", []],
    ["an fx-transfer", { ...payout(), method: "fx-transfer", currency: "USD" }, 422, "method-not-supported", []],
    ["a bank transfer in USD", { ...payout(), currency: "USD" }, 422, "currency-not-supported", []],
    ["an account the bank does not have", payout(ACCOUNT.noSuchAccount), 404, "account-not-found", []],
    ["an unknown customer", payout(ACCOUNT.credited, { customer: "cus.11111111111111111" }), 404, "not-found", []],
  ])("%s", async (_name, body, status, code, paths) => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const res = await payOut(as, body);
    expect(res).toMatchObject({ status, body: { statusCode: status, code } });
    expect((res.body.errors ?? []).map((e: { path: string }) => e.path)).toEqual(paths);
    expect(await countPayments(as)).toBe(0);
    expect(h.ledger.balance(account)).toBe(1_000_000);
  });

  it("names what is supported when the method is not", async () => {
    const res = await payOut(business(), { ...payout(), method: "local-transfer" });
    expect(res.body.message).toBe("Payouts by local-transfer are not supported; supported: bank-transfer");
  });

  it("a bank that does not answer the name enquiry: 503 with Retry-After", async () => {
    const res = await payOut(business(), payout(ACCOUNT.bankUnreachable));
    expect(res).toMatchObject({ status: 503, body: { code: "bank-unavailable" } });
    expect(res.headers?.get("retry-after")).toBe("10");
  });

  it("live mode without a live bank rail: 403 bank-rail-not-configured", async () => {
    const res = await payOut(business("live"), payout());
    expect(res).toMatchObject({ status: 403, body: { code: "bank-rail-not-configured" } });
    expect(res.body.message).toMatch(/live/);
  });
});

describe("references, keys, lists and other businesses", () => {
  it("a repeated reference answers the first payout, also under concurrency: one debit, one transfer", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const replies = await Promise.all([1, 2, 3].map(() => payOut(as, payout(ACCOUNT.credited, { reference: "once" }))));
    const ids = new Set(replies.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    const again = await payOut(as, payout(ACCOUNT.failed, { reference: "once", amount: 1 }));
    expect(again).toMatchObject({ status: 201, body: { data: { id, status: "successful", amount: 150_000 } } });
    expect(h.ledger.debitsFor(id)).toBe(1);
    expect(h.rail.sends.get(id)).toBe(1);
    expect(h.ledger.balance(account)).toBe(850_000);
  });

  it("a reference a bill payment holds is a 409, not that payment", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const bill = await api(as, "POST", "/payments/bill", {
      product: "bp.11pALsZ5v2NiSC34t",
      inputs: { meterNumber: "45000000001", amount: "150000" },
      reference: "shared",
    });
    expect(bill.status).toBe(201);
    const res = await payOut(as, payout(ACCOUNT.credited, { reference: "shared" }));
    expect(res).toMatchObject({ status: 409, body: { code: "conflict" } });
    expect(res.body.message).toContain(bill.body.data.id);
  });

  it("an Idempotency-Key repeat answers the first payout, marked replayed", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const send = () =>
      callService(h.http.url, INTERNAL, as, "POST", "/payments/payouts", payout(), { "idempotency-key": "po-1" });
    const first = await send();
    const again = await send();
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers?.get("idempotent-replayed")).toBe("true");
    expect(h.ledger.balance(account)).toBe(850_000);
  });

  it("lists payouts through the query language, GET /payments/:id reads one; another business sees none", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 5_000_000);
    const ok = (await payOut(as, payout())).body.data;
    const failed = (await payOut(as, payout(ACCOUNT.failed))).body.data;
    await api(as, "POST", "/payments/bill", {
      product: "bp.11pALsZ5v2NiSC34t",
      inputs: { meterNumber: "45000000001", amount: "150000" },
    });
    const payouts = await api(as, "GET", "/payments/payouts?countTotal");
    expect(payouts.body).toMatchObject({ code: "success", metadata: { hasMore: false, totalCount: 2 } });
    expect(payouts.body.data.map((p: { id: string }) => p.id)).toEqual([failed.id, ok.id]);
    const byType = await api(as, "GET", "/payments?filter=type:pay-out status:failed");
    expect(byType.body.data.map((p: { id: string }) => p.id)).toEqual([failed.id]);
    // Quoted: unquoted digits are a number, and 0123455551 would lose its leading zero.
    const byAccount = encodeURIComponent(`methodData.bankTransfer.accountNumber:"${ACCOUNT.failed}"`);
    const byBank = await api(as, "GET", `/payments/payouts?filter=${byAccount}&select=id method`);
    expect(byBank.body.data).toEqual([{ id: failed.id, object: "payment", method: "bank-transfer" }]);
    expect((await api(as, "GET", "/payments?countTotal")).body.metadata.totalCount).toBe(3);
    expect((await api(as, "GET", `/payments/${ok.id}`)).body.data).toMatchObject({ id: ok.id, type: "pay-out" });
    const other = business();
    expect((await api(other, "GET", `/payments/${ok.id}`)).status).toBe(404);
    expect((await api(other, "GET", "/payments/payouts")).body.data).toEqual([]);
    expect((await api({ ...as, mode: "live" }, "GET", `/payments/${ok.id}`)).status).toBe(404);
  });

  it("a payout has a receipt and a resendable completion event, and is not requeued", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const ok = (await payOut(as, payout())).body.data;
    const pdf = await fetch(`${h.http.url}/payments/${ok.id}/generate/pdf`, {
      headers: { "x-internal-token": INTERNAL, "x-business-id": as.businessId, "x-mode": as.mode },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const resent = await api(as, "POST", `/payments/${ok.id}/resend-events/payment-completed`, {});
    expect(resent.status).toBe(200);
    await eventually(() => {
      expect(eventsFor(h, ok.id).map((e) => e.data.envelope.event)).toEqual([
        "payment.payout.completed",
        "payment.payout.completed",
      ]);
    }, 5_000);
    const failed = (await payOut(as, payout(ACCOUNT.failed))).body.data;
    const requeue = await api(as, "POST", `/payments/${failed.id}/requeue`, {});
    expect(requeue).toMatchObject({ status: 422, body: { code: "payment-not-retryable" } });
  });
});
