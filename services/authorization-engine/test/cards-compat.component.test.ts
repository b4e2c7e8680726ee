/**
 * Cards as integrations written for the original interface send them (compatibility notes, "Cards" and the
 * field-level facts): MCC controls as arrays, `[null]` spending limits, the provider's category names, and funding a
 * card of a settlement-account program at issue and by /fund.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import {
  announceCustomer,
  answerDecision,
  balanceOf,
  call,
  issueCard,
  newBusiness,
  nextEvent,
  startEngine,
  type Business,
  type EngineHarness,
  type IssuedCard,
} from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.stop();
});

const seen = new Set<string>();
type Outcome = { status: string; declineReason?: string; statusReason?: string };

const simulateCapture = (as: Business, card: IssuedCard, request: Record<string, unknown>) =>
  call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, {
    amount: 1_000,
    channel: "pos",
    ...request,
  });

/** A capture the card's controls let through: the receiver is asked and approves; the final authorization. */
async function approved(as: Business, card: IssuedCard, request: Record<string, unknown>): Promise<Outcome> {
  const reply = simulateCapture(as, card, request);
  const question = await nextEvent(
    h,
    seen,
    (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === card.cardId,
  );
  await answerDecision(h, as, question, { body: { action: "approve" } });
  return (await reply).body.data;
}

/** A capture the service declines itself (the receiver is never asked). */
const declined = async (as: Business, card: IssuedCard, request: Record<string, unknown>): Promise<Outcome> =>
  (await simulateCapture(as, card, request)).body.data;

describe("card controls in the documented form", () => {
  const documented = {
    allowedMcc: ["5541-5542,7654"],
    blockedMcc: ["7399", "7395"],
    allowedChannels: ["atm", "pos", "online", "in-app"],
    spendingLimits: [null],
  };

  it("POST /cards takes MCC arrays and [null] limits, answers arrays, and the pre-checks read them", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { controls: documented });
    const record = (await call(h, as, "GET", `/cards/${card.cardId}`)).body.data;
    expect(record.controls).toEqual({ ...documented, spendingLimits: [] });

    expect(await approved(as, card, { mcc: "5542" })).toMatchObject({ status: "approved" });
    expect(await approved(as, card, { mcc: "7654" })).toMatchObject({ status: "approved" });
    expect(await declined(as, card, { mcc: "5543" })).toMatchObject({
      status: "declined",
      declineReason: "spending-control",
      statusReason: "mcc-not-allowed",
    });
  });

  it("PUT /cards/:id takes arrays; a blocked element declines; today's single string is answered as an array", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const updated = await call(h, as, "PUT", `/cards/${card.cardId}`, { controls: { blockedMcc: ["7399", "7395"] } });
    expect(updated).toMatchObject({ status: 200, body: { data: { controls: { blockedMcc: ["7399", "7395"] } } } });
    expect(await declined(as, card, { mcc: "7395" })).toMatchObject({ statusReason: "mcc-not-allowed" });
    expect(await approved(as, card, { mcc: "7396" })).toMatchObject({ status: "approved" });

    const today = await call(h, as, "PUT", `/cards/${card.cardId}`, { controls: { allowedMcc: "5411-5499, 5812" } });
    expect(today.body.data.controls).toEqual({ allowedMcc: ["5411-5499, 5812"] });
    expect(await approved(as, card, { mcc: "5812" })).toMatchObject({ status: "approved" });
  });

  it("a card stored with a single-string MCC control still answers arrays and is still checked", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    await h.pg.db.query(`UPDATE engine.cards SET controls = '{"blockedMcc": "7995"}'::jsonb WHERE id = $1`, [
      card.cardId,
    ]);
    expect((await call(h, as, "GET", `/cards/${card.cardId}`)).body.data.controls).toEqual({ blockedMcc: ["7995"] });
    expect(await declined(as, card, { mcc: "7995" })).toMatchObject({ statusReason: "mcc-not-allowed" });
  });

  it("takes the provider's category names beside today's", async () => {
    const as = newBusiness();
    const controls = {
      allowedCategories: ["airlines", "flight-ticket", "hospitality"],
      blockedCategories: ["betting"],
    };
    const card = await issueCard(h, as, { controls });
    expect((await call(h, as, "GET", `/cards/${card.cardId}`)).body.data.controls).toEqual(controls);
    expect(await approved(as, card, { mcc: "7011" })).toMatchObject({ status: "approved" });
    expect(await declined(as, card, { mcc: "5541" })).toMatchObject({ statusReason: "category-not-allowed" });
    const betting = await call(h, as, "PUT", `/cards/${card.cardId}`, { controls: { blockedCategories: ["betting"] } });
    expect(betting.status).toBe(200);
    expect(await declined(as, card, { mcc: "7995" })).toMatchObject({ statusReason: "category-not-allowed" });
  });

  it("refuses bad MCC lists, categories and limits with 400 naming each field", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const bad = await call(h, as, "PUT", `/cards/${card.cardId}`, {
      controls: {
        allowedMcc: ["5541", "55x1"],
        blockedMcc: 7995,
        allowedCategories: ["flights"],
        spendingLimits: [null, { amount: 0, interval: "monthly" }],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "controls.allowedCategories[0]",
      "controls.allowedMcc[1]",
      "controls.blockedMcc",
      "controls.spendingLimits[1].amount",
    ]);
    const descending = await call(h, as, "PUT", `/cards/${card.cardId}`, { controls: { allowedMcc: ["5542-5541"] } });
    expect(descending.body.errors).toEqual([
      { path: "controls.allowedMcc[0]", message: "a range must go from low to high" },
    ]);
  });
});

describe("funding a card of a settlement-account program", () => {
  async function openAccount(as: Business, name: string, funds = 0): Promise<string> {
    const created = await call(h, as, "POST", "/accounts", {
      name,
      currency: "NGN",
      type: "main",
      depositChannels: ["bank-account"],
    });
    const [channel] = created.body.data.depositChannels;
    if (funds > 0)
      await call(h, as, "POST", "/simulation/payments/pay-in", { accountNumber: channel.accountNumber, amount: funds });
    return created.body.data.id;
  }

  async function settlementProgram(as: Business, settlementAccount?: string): Promise<string> {
    const program = await call(h, as, "POST", "/card-programs", {
      name: "Naira virtual",
      network: "verve",
      type: "virtual",
      currency: "NGN",
      authorization: { fundingSourceType: "settlement-account", settlementAccount, timeoutDefault: "decline" },
    });
    expect(program.body.data.authorization).toMatchObject({ fundingSourceType: "settlement-account" });
    return program.body.data.id;
  }

  const logsOf = async (as: Business, account: string) =>
    (await call(h, as, "GET", `/accounts/${account}/logs`)).body.data as Array<Record<string, unknown>>;

  it("moves amount from debitSource into the program's settlement account, at issue and by /fund", async () => {
    const as = newBusiness();
    const settlement = await openAccount(as, "Card settlement");
    const treasury = await openAccount(as, "Treasury", 50_000);
    const program = await settlementProgram(as, settlement);
    const customer = await announceCustomer(h, as);

    const created = await call(h, as, "POST", "/cards", {
      program,
      customer,
      reference: "ada-card-1",
      amount: 20_000,
      debitSource: treasury,
      debitCurrency: "NGN",
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ object: "card", status: "inactive", fundingSource: settlement });
    expect(await balanceOf(h, as, treasury)).toMatchObject({ available: 30_000 });
    expect(await balanceOf(h, as, settlement)).toMatchObject({ available: 20_000 });

    const cardId = created.body.data.id as string;
    const funded = await call(h, as, "POST", `/cards/${cardId}/fund`, { amount: 5_000, debitSource: treasury });
    expect(funded).toMatchObject({ status: 200, body: { data: { account: settlement, available: 25_000 } } });
    expect(await balanceOf(h, as, treasury)).toMatchObject({ available: 25_000 });
    expect((await call(h, as, "GET", `/cards/${cardId}/funding-source`)).body.data.id).toBe(settlement);
    expect((await call(h, as, "GET", `/cards/${cardId}/funding-source/balance`)).body.data.available).toBe(25_000);
    expect((await call(h, as, "GET", `/cards/${cardId}`)).body.data.fundingSource).toBe(settlement);

    const credits = (await logsOf(as, settlement)).filter((e) => e.kind === "card-funding");
    const debits = (await logsOf(as, treasury)).filter((e) => e.kind === "card-funding");
    expect(credits.map((e) => e.amount).sort()).toEqual([20_000, 5_000].sort());
    expect(debits.map((e) => e.amount).sort()).toEqual([-20_000, -5_000].sort());
    expect(credits.every((e) => e.reference === cardId)).toBe(true);
    expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  });

  it("a debitSource that is the settlement account itself moves nothing, but must hold the amount", async () => {
    const as = newBusiness();
    const program = await settlementProgram(as);
    const settlement = (await call(h, as, "GET", `/card-programs/${program}`)).body.data.authorization
      .settlementAccount as string;
    const number = (await call(h, as, "GET", `/accounts/${settlement}`)).body.data.depositChannels[0].accountNumber;
    await call(h, as, "POST", "/simulation/payments/pay-in", { accountNumber: number, amount: 10_000 });
    const customer = await announceCustomer(h, as);
    const body = { program, customer, reference: "self-funded", amount: 10_000, debitSource: settlement };

    const created = await call(h, as, "POST", "/cards", body);
    expect(created).toMatchObject({ status: 201, body: { data: { fundingSource: settlement } } });
    const cardId = created.body.data.id as string;
    expect(
      await call(h, as, "POST", `/cards/${cardId}/fund`, { amount: 10_000, debitSource: settlement }),
    ).toMatchObject({ status: 200, body: { data: { account: settlement, available: 10_000 } } });
    expect(
      await call(h, as, "POST", `/cards/${cardId}/fund`, { amount: 10_001, debitSource: settlement }),
    ).toMatchObject({ status: 422, body: { code: "insufficient-funds" } });
    const tooMuch = await call(h, as, "POST", "/cards", { ...body, reference: "self-funded-2", amount: 10_001 });
    expect(tooMuch).toMatchObject({ status: 422, body: { code: "insufficient-funds" } });
    expect((await logsOf(as, settlement)).filter((e) => e.kind === "card-funding")).toEqual([]);
    expect(await balanceOf(h, as, settlement)).toMatchObject({ available: 10_000, held: 0 });
  });

  it("a card issued with fundingSource spends from that account", async () => {
    const as = newBusiness();
    const program = await settlementProgram(as);
    const wallet = await openAccount(as, "Ada's wallet");
    const treasury = await openAccount(as, "Treasury", 8_000);
    const customer = await announceCustomer(h, as);
    const created = await call(h, as, "POST", "/cards", {
      program,
      customer,
      reference: "wallet-card",
      fundingSource: wallet,
      amount: 8_000,
      debitSource: treasury,
    });
    expect(created).toMatchObject({ status: 201, body: { data: { fundingSource: wallet } } });
    expect(await balanceOf(h, as, wallet)).toMatchObject({ available: 8_000 });
    expect(await balanceOf(h, as, treasury)).toMatchObject({ available: 0 });
  });

  it("refuses funding without a source, beyond the source's balance, or in another currency; nothing moves", async () => {
    const as = newBusiness();
    const settlement = await openAccount(as, "Card settlement");
    const treasury = await openAccount(as, "Treasury", 1_000);
    const program = await settlementProgram(as, settlement);
    const customer = await announceCustomer(h, as);
    const issue = (extra: Record<string, unknown>) =>
      call(h, as, "POST", "/cards", { program, customer, reference: `r-${Math.random()}`, ...extra });

    expect(await issue({ amount: 500 })).toMatchObject({ status: 400, body: { errors: [{ path: "debitSource" }] } });
    expect((await issue({ amount: 0, debitSource: treasury })).status).toBe(400);
    expect(await issue({ amount: 1_001, debitSource: treasury })).toMatchObject({
      status: 422,
      body: { code: "insufficient-funds" },
    });
    expect((await issue({ amount: 500, debitSource: treasury, debitCurrency: "USD" })).status).toBe(422);

    const cardId = (await issue({})).body.data.id as string;
    expect((await call(h, as, "POST", `/cards/${cardId}/fund`, { amount: 500 })).status).toBe(400);
    expect(await call(h, as, "POST", `/cards/${cardId}/fund`, { amount: 1_001, debitSource: treasury })).toMatchObject({
      status: 422,
      body: { code: "insufficient-funds" },
    });
    expect(await balanceOf(h, as, treasury)).toMatchObject({ available: 1_000 });
    expect(await balanceOf(h, as, settlement)).toMatchObject({ available: 0 });
  });
});
