import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { announceCustomer, call, eventsFor, startHarness, type Caller, type Harness } from "./harness";

const ELECTRICITY = "bp.11pALsZ5v2NiSC34t"; // Ikeja Electric prepaid: meterNumber + amount, fee 10000
const DATA = "bp.11pALsZ5pEtYdYb1z"; // MTN Data: phoneNumber, fixed price 100000, no fee
const US_TOPUP = "bp.11pALsZ6CP5xuxU6d"; // USD

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h, as, method, path, body);
const business = (): Caller => ({ businessId: newId("business"), mode: "test" });
const electricity = (meterNumber = "45000000001", amount: string | number = "150000") => ({
  product: ELECTRICITY,
  inputs: { meterNumber, amount },
});

/** The one events.v1 message of a payment, checked against the payment as GET shows it. */
async function theEventOf(as: Caller, paymentId: string, kind: string) {
  const [message] = await eventually(() => {
    expect(eventsFor(h, paymentId)).toHaveLength(1);
    return eventsFor(h, paymentId);
  }, 5_000);
  const payment = (await api(as, "GET", `/payments/${paymentId}`)).body.data;
  expect(message).toMatchObject({
    type: "event.published",
    businessId: as.businessId,
    mode: as.mode,
    data: { resourceId: paymentId },
  });
  expect(message!.data.envelope).toEqual({
    event: kind,
    data: payment,
    metadata: { sentAt: expect.any(String), event: payment.events[0] },
  });
  expect(payment.events).toEqual([expect.stringMatching(/^evt\./)]);
  return message!;
}

describe("paying a bill", () => {
  it("debits amount + fee, pays the biller once, answers 201 with the token, and announces payment.bill.completed", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const customer = await announceCustomer(h, as, "Ngozi Obi");
    const res = await api(as, "POST", "/payments/bill", {
      ...electricity(),
      customer,
      reference: "bill-1",
      metadata: { orderId: 7 },
    });
    expect(res.status).toBe(201);
    expect(res.body.code).toBe("success");
    const payment = res.body.data;
    expect(payment.id).toMatch(/^p\.[1-9A-HJ-NP-Za-km-z]{17}$/);
    expect(payment).toMatchObject({
      object: "payment",
      type: "bill",
      status: "successful",
      amount: 150_000,
      currency: "NGN",
      fees: 10_000,
      feeBreakdown: [{ amount: 10_000, group: "bill-payment", type: "flat" }],
      account,
      fundingSource: account,
      method: "bill",
      customer,
      reference: "bill-1",
      failureReason: null,
      metadata: { orderId: 7 },
      methodData: {
        product: ELECTRICITY,
        biller: "ikeja-electric",
        category: "electricity",
        inputs: { meterNumber: "45000000001", amount: "150000" },
        accountNumber: "45000000001",
        accountName: expect.any(String),
        billerReference: expect.stringMatching(/^SBX-/),
        output: { token: expect.stringMatching(/^\d{4}(-\d{4}){4}$/), units: expect.stringMatching(/^\d+\.\d{2}$/) },
      },
    });
    expect(h.ledger.balance(account)).toBe(1_000_000 - 160_000);
    expect(h.ledger.commandsFor(payment.id).map((c) => [c.type, c.data.commandId])).toEqual([
      ["ledger.debit", `${payment.id}:debit`],
    ]);
    expect(h.ledger.commandsFor(payment.id)[0]).toMatchObject({
      businessId: as.businessId,
      mode: "test",
      data: { account: null, currency: "NGN", amount: 160_000, reference: payment.id },
    });
    expect(h.biller.pays.get(payment.id)).toBe(1);
    const event = await theEventOf(as, payment.id, "payment.bill.completed");
    expect(event.data.envelope.data).toMatchObject({
      status: "successful",
      methodData: { output: payment.methodData.output },
    });
    expect((await api(as, "GET", `/payments/${payment.id}`)).body).toEqual({
      code: "success",
      data: { ...payment, events: payment.events },
    });
  });

  it("debits the given debitSource", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const wallet = h.ledger.openAccount(as.businessId, "test", "NGN", 500_000, { isDefault: false });
    const res = await api(as, "POST", "/payments/bill", {
      product: DATA,
      inputs: { phoneNumber: "08031234567" },
      debitSource: wallet,
    });
    expect(res.body.data).toMatchObject({
      status: "successful",
      account: wallet,
      fundingSource: wallet,
      fees: 0,
      feeBreakdown: [],
    });
    expect(h.ledger.balance(wallet)).toBe(400_000);
    await theEventOf(as, res.body.data.id, "payment.bill.completed");
  });

  it("refunds when the biller declines: the payment fails with biller-declined and the balance is whole again", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const res = await api(as, "POST", "/payments/bill", electricity("45000001111"));
    expect(res.status).toBe(201);
    const payment = res.body.data;
    expect(payment).toMatchObject({
      status: "failed",
      failureReason: "biller-declined",
      account,
      methodData: { output: null },
    });
    expect(h.ledger.balance(account)).toBe(1_000_000);
    expect(h.ledger.commandsFor(payment.id).map((c) => c.type)).toEqual(["ledger.debit", "ledger.refund"]);
    expect(h.ledger.commandsFor(payment.id)[1]!.data).toMatchObject({
      commandId: `${payment.id}:refund`,
      debitCommandId: `${payment.id}:debit`,
    });
    expect(h.biller.pays.get(payment.id)).toBe(1);
    await theEventOf(as, payment.id, "payment.bill.failed");
  });

  it.each([
    ["insufficient funds", 100_000, "NGN", undefined, "insufficient-funds"],
    ["an unknown debit account", 1_000_000, "NGN", "unknown", "account-not-found"],
    ["another business's account", 1_000_000, "NGN", "foreign", "account-not-found"],
    ["an account in another currency", 1_000_000, "USD", "own", "currency-mismatch"],
  ] as const)("fails on %s without calling the biller", async (_name, balance, currency, source, reason) => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", currency, balance);
    const debitSource =
      source === "unknown"
        ? newId("account")
        : source === "foreign"
          ? h.ledger.openAccount(newId("business"), "test", "NGN", 1_000_000)
          : source === "own"
            ? account
            : undefined;
    const res = await api(as, "POST", "/payments/bill", { ...electricity(), debitSource });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: "failed", failureReason: reason, account: null });
    expect(h.ledger.balance(account)).toBe(balance);
    expect(h.biller.pays.get(res.body.data.id)).toBeUndefined();
    await theEventOf(as, res.body.data.id, "payment.bill.failed");
  });

  it("pays a USD product from the USD default account", async () => {
    const as = business();
    const usd = h.ledger.openAccount(as.businessId, "test", "USD", 10_000);
    const res = await api(as, "POST", "/payments/bill", {
      product: US_TOPUP,
      inputs: { phoneNumber: "+12025550101", amount: 1_000 },
    });
    expect(res.body.data).toMatchObject({
      status: "successful",
      currency: "USD",
      amount: 1_000,
      fees: 50,
      account: usd,
    });
    expect(h.ledger.balance(usd)).toBe(8_950);
    await theEventOf(as, res.body.data.id, "payment.bill.completed");
  });
});

describe("a reference", () => {
  it("names one payment: concurrent and later requests with it get the same payment and one debit", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const body = { ...electricity(), reference: "once-only" };
    const replies = await Promise.all([1, 2, 3].map(() => api(as, "POST", "/payments/bill", body)));
    const ids = new Set(replies.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    for (const r of replies) expect(r.status).toBe(201);
    const again = await api(as, "POST", "/payments/bill", {
      ...body,
      inputs: { meterNumber: "45000000001", amount: "200000" },
    });
    expect(again.body.data).toMatchObject({ id, amount: 150_000 });
    expect(h.ledger.debitsFor(id)).toBe(1);
    expect(h.ledger.commandsFor(id).filter((c) => c.type === "ledger.debit")).toHaveLength(1);
    expect(h.ledger.balance(account)).toBe(840_000);
    expect(h.biller.pays.get(id)).toBe(1);
    await theEventOf(as, id, "payment.bill.completed");
    const list = await api(as, "GET", "/payments?filter=reference:once-only&countTotal");
    expect(list.body.metadata.totalCount).toBe(1);

    const other = business();
    h.ledger.openAccount(other.businessId, "test", "NGN", 1_000_000);
    const theirs = await api(other, "POST", "/payments/bill", body);
    expect(theirs.body.data.id).not.toBe(id);
  });
});

describe("listing and reading payments", () => {
  it("filters by status, reference, customer, product and createdAt, expands the customer, and hides other businesses' payments", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 10_000_000);
    const customer = await announceCustomer(h, as, "Fatima Bello");
    const start = new Date().toISOString();
    const ok = (await api(as, "POST", "/payments/bill", { ...electricity(), customer, reference: "list-1" })).body.data;
    const declined = (await api(as, "POST", "/payments/bill", { ...electricity("45000001111"), reference: "list-2" }))
      .body.data;
    const data = (
      await api(as, "POST", "/payments/bill", { product: DATA, inputs: { phoneNumber: "08031234567" }, customer })
    ).body.data;
    const ids = async (query: string) =>
      (await api(as, "GET", `/payments?${query}`)).body.data.map((p: { id: string }) => p.id);

    expect(await ids("")).toEqual([data.id, declined.id, ok.id]);
    expect(await ids("filter=status:successful")).toEqual([data.id, ok.id]);
    expect(await ids("filter=status:failed failureReason:biller-declined")).toEqual([declined.id]);
    expect(await ids("filter=reference:list-1")).toEqual([ok.id]);
    expect(await ids(`filter=customer:${customer}`)).toEqual([data.id, ok.id]);
    expect(await ids(`filter=product:${DATA}`)).toEqual([data.id]);
    expect(await ids(`filter=methodData.biller:ikeja-electric&sort=createdAt`)).toEqual([ok.id, declined.id]);
    expect(await ids(`filter=createdAt|gted|${encodeURIComponent(start)}`)).toHaveLength(3);
    expect(await ids(`filter=createdAt|ltd|${encodeURIComponent(start)}`)).toEqual([]);
    expect(await ids("filter=amount>=150000&sort=amount")).toEqual([ok.id, declined.id]);

    const expanded = await api(as, "GET", `/payments?filter=reference:list-1&expand=customer&select=status customer`);
    expect(expanded.body.data).toEqual([
      {
        id: ok.id,
        object: "payment",
        status: "successful",
        customer: expect.objectContaining({ id: customer, object: "customer", name: "Fatima Bello", status: "active" }),
      },
    ]);
    expect((await api(as, "GET", "/payments?filter=bogus:1")).status).toBe(400);
    expect((await api(as, "GET", "/payments?filter=status|eq")).body).toEqual({
      statusCode: 400,
      message: expect.stringContaining("filter"),
    });

    const stranger = business();
    expect((await api(stranger, "GET", "/payments?countTotal")).body.metadata).toEqual({
      hasMore: false,
      totalCount: 0,
    });
    expect((await api(stranger, "GET", `/payments/${ok.id}`)).status).toBe(404);
    expect((await api({ ...as, mode: "live" }, "GET", `/payments/${ok.id}`)).status).toBe(404);
    expect((await api(as, "GET", `/payments/${newId("payment")}`)).body).toMatchObject({
      statusCode: 404,
      code: "not-found",
    });
  });
});

describe("events", () => {
  it("every payment of this file produced exactly one events.v1 message", async () => {
    await new Promise((r) => setTimeout(r, 500));
    const perPayment = new Map<string, string[]>();
    for (const e of h.events)
      perPayment.set(e.data.resourceId, [...(perPayment.get(e.data.resourceId) ?? []), e.data.envelope.event]);
    expect(perPayment.size).toBeGreaterThan(8);
    for (const [id, kinds] of perPayment) expect(kinds, id).toHaveLength(1);
  });
});
