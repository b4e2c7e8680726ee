import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS, type FeeCreatedMessage, type Mode, type PublishedFee } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import { callService } from "../../../test/support/internal-api";
import { call, INTERNAL, startHarness, type Caller, type Harness } from "./harness";

const ELECTRICITY = "bp.11pALsZ5v2NiSC34t"; // Ikeja Electric prepaid: meterNumber + amount, product fee 10000
const US_TOPUP = "bp.11pALsZ6CP5xuxU6d"; // USD, product fee 50

let h: Harness;
beforeAll(async () => {
  // A fees.v1 message published 200 ms after the request must still be waited for on a busy CI machine.
  h = await startHarness({ customerWaitMs: 5_000 });
});
afterAll(async () => {
  await h?.stop();
});

const api = (as: Caller, method: string, path: string, body?: unknown) => call(h, as, method, path, body);
const business = (mode: Mode = "test"): Caller => ({ businessId: newId("business"), mode });
const configure = (as: Caller, body: unknown) => api(as, "PUT", "/tools/configuration/payment", body);
const configurationOf = async (as: Caller) => (await api(as, "GET", "/tools/configuration")).body;

type FeeTerms = Pick<PublishedFee, "structure" | "value" | "cap" | "currency">;
const FLAT_NGN: FeeTerms = { structure: "flat", value: 2_500, cap: null, currency: "NGN" };

/** A fee on fees.v1 as the authorization engine announces it; resolves once the projection has it. */
function feeMessage(as: Caller, terms: FeeTerms = FLAT_NGN) {
  const id = newId("fee");
  const now = new Date().toISOString();
  const value: FeeCreatedMessage = {
    type: "fee.created",
    businessId: as.businessId,
    mode: as.mode,
    occurredAt: now,
    data: { id, name: "Bill fee", account: newId("account"), createdAt: now, ...terms },
  };
  return { id, message: { topic: TOPICS.fees, key: id, value, id: newId("message") } };
}

async function announceFee(as: Caller, terms: FeeTerms = FLAT_NGN): Promise<string> {
  const { id, message } = feeMessage(as, terms);
  await h.bus.publish([message]);
  return id;
}

const unset = {
  object: "configuration",
  payment: { payInAccount: null, payOutAccount: null, fees: { bankTransfer: null, billPayment: null } },
};

describe("GET /tools/configuration and PUT /tools/configuration/payment", () => {
  it("answers nulls before anything is configured", async () => {
    const reply = await api(business(), "GET", "/tools/configuration");
    expect(reply).toMatchObject({ status: 200, body: { code: "success", data: unset } });
  });

  it("stores the documented body and answers the configuration; GET shows it", async () => {
    const as = business();
    const [bankTransfer, billPayment] = [await announceFee(as), await announceFee(as)];
    const [payInAccount, payOutAccount] = [newId("account"), newId("account")];
    const reply = await configure(as, { payInAccount, payOutAccount, fees: { bankTransfer, billPayment } });
    const configured = {
      object: "configuration",
      payment: { payInAccount, payOutAccount, fees: { bankTransfer, billPayment } },
    };
    expect(reply).toMatchObject({ status: 200, body: { code: "success", data: configured } });
    expect(await configurationOf(as)).toEqual({ code: "success", data: configured });
  });

  it("changes only the fields sent; null clears one", async () => {
    const as = business();
    const billPayment = await announceFee(as);
    const payOutAccount = newId("account");
    await configure(as, { payOutAccount, fees: { billPayment } });
    const payInAccount = newId("account");
    const reply = await configure(as, { payInAccount, fees: {} });
    expect(reply.body.data.payment).toEqual({
      payInAccount,
      payOutAccount,
      fees: { bankTransfer: null, billPayment },
    });
    const cleared = await configure(as, { payOutAccount: null, fees: { billPayment: null } });
    expect(cleared.body.data.payment).toEqual({
      payInAccount,
      payOutAccount: null,
      fees: { bankTransfer: null, billPayment: null },
    });
    expect((await configure(as, {})).body.data).toEqual(cleared.body.data);
  });

  it("refuses bad bodies field by field: unknown keys, ids of the wrong kind", async () => {
    const as = business();
    const bad = await configure(as, {
      payInAccount: "acct.1",
      payOutAccount: 7,
      fees: { billPayment: "fe.1", transfer: newId("fee") },
      payoutAccount: newId("account"),
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, code: "invalid-request" });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "(body)",
      "fees",
      "fees.billPayment",
      "payInAccount",
      "payOutAccount",
    ]);
    const feeAsAccount = await configure(as, { payOutAccount: newId("fee") });
    expect(feeAsAccount.status).toBe(400);
    expect(feeAsAccount.body.errors).toEqual([{ path: "payOutAccount", message: expect.stringContaining("ac.") }]);
    for (const body of [[], "text", null, { fees: null }, { fees: [] }])
      expect((await configure(as, body)).status, JSON.stringify(body)).toBe(400);
    expect(await configurationOf(as)).toEqual({ code: "success", data: unset });
  });

  it("answers 404 naming the field for a fee it does not know, another business's or the other mode's", async () => {
    const as = business();
    const mine = await announceFee(as);
    const theirs = await announceFee(business());
    const live = await announceFee({ ...as, mode: "live" });
    for (const [field, id] of [
      ["billPayment", "fee.11111111111111111"],
      ["bankTransfer", theirs],
      ["billPayment", live],
    ] as const) {
      const reply = await configure(as, {
        fees: { [field]: id, ...(field === "bankTransfer" && { billPayment: mine }) },
      });
      expect(reply.status, `${field} ${id}`).toBe(404);
      expect(reply.body).toMatchObject({
        statusCode: 404,
        code: "not-found",
        message: `fees.${field}: fee ${id} was not found`,
        errors: [{ path: `fees.${field}` }],
      });
    }
    expect(await configurationOf(as)).toEqual({ code: "success", data: unset });
  });

  it("waits for a fee made moments ago whose fees.v1 message is still on its way", async () => {
    const as = business();
    const { id, message } = feeMessage(as);
    const reply = configure(as, { fees: { billPayment: id } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await h.bus.publish([message]);
    expect((await reply).status).toBe(200);
  });

  it("keeps each business's configuration per mode", async () => {
    const as = business();
    const live = { ...as, mode: "live" as const };
    const payOutAccount = newId("account");
    await configure(as, { payOutAccount, fees: { billPayment: await announceFee(as) } });
    expect((await configurationOf(as)).data.payment.payOutAccount).toBe(payOutAccount);
    expect(await configurationOf(live)).toEqual({ code: "success", data: unset });
    expect(await configurationOf(business())).toEqual({ code: "success", data: unset });
  });

  it("a PUT repeated with its Idempotency-Key answers the first answer again", async () => {
    const as = business();
    const put = (body: unknown) =>
      callService(h.http.url, INTERNAL, as, "PUT", "/tools/configuration/payment", body, {
        "idempotency-key": "configure-1",
      });
    const body = { payInAccount: newId("account") };
    const first = await put(body);
    const again = await put(body);
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers?.get("idempotent-replayed")).toBe("true");
  });
});

describe("a bill payment with a configured billPayment fee", () => {
  const electricity = { product: ELECTRICITY, inputs: { meterNumber: "45000000001", amount: "150000" } };

  it("charges that fee on the amount (a percentage, rounded half up) instead of the product's, and says so", async () => {
    const as = business();
    const account = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const fee = await announceFee(as, { structure: "percentage", value: 1.25, cap: null, currency: "NGN" });
    await configure(as, { fees: { billPayment: fee } });
    // 1.25 % of 150,150 = 1,876.875: 1,877.
    const body = { ...electricity, inputs: { meterNumber: "45000000001", amount: "150150" } };
    const validated = await api(as, "POST", "/payments/bill/validate", body);
    expect(validated.body.data).toMatchObject({ amount: 150_150, fee: 1_877, total: 152_027 });
    const paid = await api(as, "POST", "/payments/bill", body);
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({
      status: "successful",
      amount: 150_150,
      fees: 1_877,
      feeBreakdown: [{ amount: 1_877, group: "bill-payment", type: "percentage", fee }],
    });
    expect(h.ledger.commandsFor(paid.body.data.id)[0]!.data).toMatchObject({ amount: 152_027 });
    expect(h.ledger.balance(account)).toBe(1_000_000 - 152_027);
  });

  it("limits a percentage fee to its cap; a flat fee charges its value", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 10_000_000);
    const capped = await announceFee(as, { structure: "percentage", value: 10, cap: 3_000, currency: "NGN" });
    await configure(as, { fees: { billPayment: capped } });
    expect((await api(as, "POST", "/payments/bill", electricity)).body.data).toMatchObject({
      fees: 3_000,
      feeBreakdown: [{ amount: 3_000, type: "percentage", fee: capped }],
    });
    const flat = await announceFee(as, { structure: "flat", value: 0, cap: null, currency: "NGN" });
    await configure(as, { fees: { billPayment: flat } });
    expect((await api(as, "POST", "/payments/bill", electricity)).body.data).toMatchObject({
      fees: 0,
      feeBreakdown: [{ amount: 0, group: "bill-payment", type: "flat", fee: flat }],
    });
  });

  it("keeps the product's fee for a bill in another currency than the fee's, and once the fee is cleared", async () => {
    const as = business();
    h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    h.ledger.openAccount(as.businessId, "test", "USD", 10_000);
    await configure(as, { fees: { billPayment: await announceFee(as) } });
    const usd = await api(as, "POST", "/payments/bill", {
      product: US_TOPUP,
      inputs: { phoneNumber: "+12025550101", amount: 1_000 },
    });
    expect(usd.body.data).toMatchObject({
      fees: 50,
      feeBreakdown: [{ amount: 50, group: "bill-payment", type: "flat" }],
    });
    expect(usd.body.data.feeBreakdown[0]).not.toHaveProperty("fee");
    await configure(as, { fees: { billPayment: null } });
    expect((await api(as, "POST", "/payments/bill", electricity)).body.data).toMatchObject({
      fees: 10_000,
      feeBreakdown: [{ amount: 10_000, group: "bill-payment", type: "flat" }],
    });
  });

  it("debits the configured payOutAccount when the bill names no debitSource; a debitSource still wins", async () => {
    const as = business();
    const main = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000);
    const payOut = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000, { isDefault: false });
    const wallet = h.ledger.openAccount(as.businessId, "test", "NGN", 1_000_000, { isDefault: false });
    await configure(as, { payOutAccount: payOut });
    const byDefault = await api(as, "POST", "/payments/bill", electricity);
    expect(byDefault.body.data).toMatchObject({ status: "successful", account: payOut, fundingSource: payOut });
    const named = await api(as, "POST", "/payments/bill", { ...electricity, debitSource: wallet });
    expect(named.body.data).toMatchObject({ status: "successful", account: wallet });
    expect([h.ledger.balance(main), h.ledger.balance(payOut), h.ledger.balance(wallet)]).toEqual([
      1_000_000, 840_000, 840_000,
    ]);
    // Another business's account is refused by the ledger when it is used.
    await configure(as, { payOutAccount: h.ledger.openAccount(newId("business"), "test", "NGN", 1_000_000) });
    const foreign = await api(as, "POST", "/payments/bill", electricity);
    expect(foreign.body.data).toMatchObject({ status: "failed", failureReason: "account-not-found" });
  });
});
