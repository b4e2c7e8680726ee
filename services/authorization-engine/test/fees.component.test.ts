import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncomingMessage } from "@cardhold/bus";
import { feeCreatedMessage, TOPICS } from "@cardhold/contracts";
import { eventually } from "../../../test/support/eventually";
import {
  announceCustomer,
  answerDecision,
  call,
  issueCard,
  newBusiness,
  nextEvent,
  startEngine,
  type Business,
  type EngineHarness,
} from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.stop();
});

const program = { name: "Virtual NGN", network: "verve", type: "virtual", currency: "NGN" };

/** A business's default NGN account (a program without a settlementAccount names it), and a second one. */
async function accountsOf(as: Business) {
  const made = await call(h, as, "POST", "/card-programs", program);
  const settlement = made.body.data.authorization.settlementAccount as string;
  const revenue = await call(h, as, "POST", "/accounts", { name: "Fee revenue", currency: "NGN", type: "main" });
  expect(revenue.status).toBe(201);
  return { settlement, revenue: revenue.body.data.id as string };
}

const createFee = (as: Business, body: Record<string, unknown>) => call(h, as, "POST", "/fees", body);

/** The documented card flow on a program: fund its settlement account, issue and activate a card. */
async function cardOn(as: Business, programId: string, settlement: string, funds: number): Promise<string> {
  const account = await call(h, as, "GET", `/accounts/${settlement}`);
  await call(h, as, "POST", "/simulation/payments/pay-in", {
    accountNumber: account.body.data.depositChannels[0].accountNumber,
    amount: funds,
  });
  const customer = await announceCustomer(h, as);
  const card = await call(h, as, "POST", "/cards", { program: programId, customer, reference: `card-${programId}` });
  expect(card.status).toBe(201);
  const secrets = await call(h, as, "GET", `/cards/${card.body.data.id}/secrets`);
  await call(h, as, "POST", `/cards/${card.body.data.id}/activate`, { cvv: secrets.body.data.cvv, pin: "1234" });
  return card.body.data.id;
}

const seen = new Set<string>();

/** A capture the receiver approves: the request event (with the fees it asked about) and the final authorization. */
async function approvedCapture(as: Business, cardId: string, amount: number, fees: number) {
  const reply = call(h, as, "POST", `/simulation/cards/${cardId}/request-authorization/capture`, {
    amount,
    fees,
    channel: "online",
  });
  const request = await nextEvent(
    h,
    seen,
    (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === cardId,
  );
  await answerDecision(h, as, request, { body: { action: "approve" } });
  const { status, body } = await reply;
  expect(status).toBe(200);
  return { asked: request.data as Record<string, unknown>, authorization: body.data };
}

describe("fees", () => {
  it("creates flat and percentage fees (the documented body), lists them with a filter and gets one", async () => {
    const as = newBusiness();
    const { revenue } = await accountsOf(as);
    const flat = await createFee(as, {
      name: "Card fee",
      description: "Per purchase",
      structure: "flat",
      value: 5_000,
      account: revenue,
      metadata: { team: "cards" },
    });
    expect(flat.status).toBe(201);
    expect(flat.body).toMatchObject({
      code: "success",
      data: {
        id: expect.stringMatching(/^fee\.[1-9A-HJ-NP-Za-km-z]{17}$/),
        object: "fee",
        name: "Card fee",
        description: "Per purchase",
        structure: "flat",
        currency: "NGN",
        value: 5_000,
        account: revenue,
        metadata: { team: "cards" },
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
      },
    });
    expect(flat.body.data).not.toHaveProperty("cap");
    const percentage = await createFee(as, {
      name: "FX fee",
      structure: "percentage",
      currency: "NGN",
      value: 1.5,
      cap: 10_000,
      account: revenue,
    });
    expect(percentage.status).toBe(201);
    expect(percentage.body.data).toMatchObject({ object: "fee", structure: "percentage", value: 1.5, cap: 10_000 });

    const listed = await call(h, as, "GET", "/fees?filter=structure:percentage&countTotal");
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ code: "success", metadata: { hasMore: false, totalCount: 1 } });
    expect(listed.body.data).toEqual([percentage.body.data]);
    const all = await call(h, as, "GET", "/fees?filter=value|gt|1000&expand=account");
    expect(all.body.data.map((f: { id: string }) => f.id)).toEqual([flat.body.data.id]);
    expect(all.body.data[0].account).toMatchObject({ id: revenue, object: "account" });

    const got = await call(h, as, "GET", `/fees/${percentage.body.data.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ code: "success", data: percentage.body.data });
    expect((await call(h, newBusiness(), "GET", `/fees/${percentage.body.data.id}`)).status).toBe(404);
  });

  it("refuses bad bodies field by field, and accounts it cannot pay into", async () => {
    const as = newBusiness();
    const { revenue } = await accountsOf(as);
    const missing = await createFee(as, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "account",
      "name",
      "structure",
      "value",
    ]);
    const flat = await createFee(as, { name: "F", structure: "flat", value: 1.5, cap: 10, account: revenue });
    expect(flat.status).toBe(400);
    expect(flat.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["cap", "value"]);
    for (const value of [101, 1.23456, -1]) {
      const bad = await createFee(as, { name: "P", structure: "percentage", value, account: revenue });
      expect(bad.status, String(value)).toBe(400);
      expect(bad.body.errors[0].path).toBe("value");
    }
    const wrong = await createFee(as, {
      name: "P",
      structure: "percentage",
      value: 1,
      cap: -5,
      currency: "EUR",
      account: "acct.1",
    });
    expect(wrong.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["account", "cap", "currency"]);
    const unknown = { name: "F", structure: "flat", value: 100, account: "ac.11111111111111111" };
    expect((await createFee(as, unknown)).status).toBe(404);
    expect((await createFee(as, { ...unknown, account: revenue, currency: "USD" })).status).toBe(422);
  });

  it("a POST repeated with its Idempotency-Key answers the first fee again and makes no second one", async () => {
    const as = newBusiness();
    const { revenue } = await accountsOf(as);
    const body = { name: "Card fee", structure: "flat", value: 100, account: revenue };
    const first = await call(h, as, "POST", "/fees", body, { "idempotency-key": "fee-1" });
    const again = await call(h, as, "POST", "/fees", body, { "idempotency-key": "fee-1" });
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers?.get("idempotent-replayed")).toBe("true");
    expect((await call(h, as, "GET", "/fees?countTotal")).body.metadata.totalCount).toBe(1);
  });

  it("answers 404 for an unknown fee", async () => {
    const reply = await call(h, newBusiness(), "GET", "/fees/fee.11111111111111111");
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: "not-found" });
  });

  it("announces each fee it makes on fees.v1, keyed by the fee, with the terms other services charge it by", async () => {
    const published: IncomingMessage[] = [];
    await h.bus.subscribe({ group: "test-fees", topics: [TOPICS.fees], handler: async (m) => void published.push(m) });
    const as = newBusiness("live");
    const { revenue } = await accountsOf(as);
    const made = await createFee(as, {
      name: "Bills",
      structure: "percentage",
      value: 1.5,
      cap: 10_000,
      account: revenue,
    });
    expect(made.status).toBe(201);
    const fee = made.body.data;
    const [message] = await eventually(() => {
      expect(published.filter((m) => m.key === fee.id)).toHaveLength(1);
      return published.filter((m) => m.key === fee.id);
    }, 5_000);
    expect(message!.value).toEqual({
      type: "fee.created",
      businessId: as.businessId,
      mode: "live",
      occurredAt: fee.createdAt,
      data: {
        id: fee.id,
        name: "Bills",
        structure: "percentage",
        currency: "NGN",
        value: 1.5,
        cap: 10_000,
        account: revenue,
        createdAt: fee.createdAt,
      },
    });
    expect(feeCreatedMessage.safeParse(message!.value).success).toBe(true);
  });
});

describe("a card program's transactionFee", () => {
  it("names a fee: the program shows feesAccount, and a capture's fees include the fee on its amount", async () => {
    const as = newBusiness();
    const { settlement, revenue } = await accountsOf(as);
    const fee = await createFee(as, { name: "1.5 %", structure: "percentage", value: 1.5, cap: 600, account: revenue });
    const created = await call(h, as, "POST", "/card-programs", {
      ...program,
      authorization: { fundingSourceType: "settlement-account", transactionFee: fee.body.data.id },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.authorization).toMatchObject({
      settlementAccount: settlement,
      feesAccount: revenue,
      transactionFee: fee.body.data.id,
    });
    const got = await call(h, as, "GET", `/card-programs/${created.body.data.id}`);
    expect(got.body.data.authorization.feesAccount).toBe(revenue);

    const cardId = await cardOn(as, created.body.data.id, settlement, 100_000);
    const small = await approvedCapture(as, cardId, 10_000, 500); // 1.5 % of 10,000 = 150
    expect(small.asked).toMatchObject({ amount: 10_000, fees: 650 });
    expect(small.authorization).toMatchObject({ status: "approved", fees: 650 });
    const large = await approvedCapture(as, cardId, 50_000, 0); // 750, capped at 600
    expect(large.authorization).toMatchObject({ status: "approved", amount: 50_000, fees: 600 });
  });

  it("takes {} as no fee (feesAccount is then the settlement account), and refuses fees it cannot use", async () => {
    const as = newBusiness();
    const placeholder = await call(h, as, "POST", "/card-programs", {
      ...program,
      authorization: { fundingSourceType: "settlement-account", transactionFee: {}, timeoutDefault: "decline" },
    });
    expect(placeholder.status).toBe(201);
    const { settlementAccount, feesAccount } = placeholder.body.data.authorization;
    expect(feesAccount).toBe(settlementAccount);

    const bad = await call(h, as, "POST", "/card-programs", {
      ...program,
      authorization: { transactionFee: { amount: 1 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("authorization.transactionFee");
    const unknown = { ...program, authorization: { transactionFee: "fee.11111111111111111" } };
    expect((await call(h, as, "POST", "/card-programs", unknown)).status).toBe(404);
    const usd = await call(h, as, "POST", "/accounts", { name: "USD", currency: "USD", type: "main" });
    const usdFee = await createFee(as, {
      name: "USD",
      structure: "flat",
      value: 10,
      currency: "USD",
      account: usd.body.data.id,
    });
    const mismatch = await call(h, as, "POST", "/card-programs", {
      ...program,
      authorization: { transactionFee: usdFee.body.data.id },
    });
    expect(mismatch.status).toBe(422);
  });

  it("still takes whole minor units: a flat fee on every capture, paid as before", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { transactionFee: 100 });
    const record = (await call(h, as, "GET", `/card-programs/${card.programId}`)).body.data;
    expect(record.authorization).toMatchObject({ transactionFee: 100, feesAccount: card.settlementAccount });
    const capture = await approvedCapture(as, card.cardId, 20_000, 250);
    expect(capture.authorization).toMatchObject({ status: "approved", fees: 350 });
  });
});
