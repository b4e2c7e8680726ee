/**
 * Card link and enrolment (compatibility notes part 2, "Cards: link and enrol"): a printed card of a physical program
 * is linked to a customer by id or by PAN and answered as an inactive card; an active card is enrolled for SafeToken or
 * 3-D Secure, the contact details defaulting to the customer's. Printing is the sandbox's card bureau.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerCreated } from "../../../test/support/internal-api";
import { call, issueCard, newBusiness, startEngine, type Business, type EngineHarness } from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.stop();
});

const keyed = (key: string) => ({ "idempotency-key": key });
const UNKNOWN_CUSTOMER = "cus.11111111111111111";
const UNKNOWN_CARD = "c.11111111111111111";
const ADA = { phoneNumber: "+2348031234567", email: "ada.obi@example.com" };

/** A customer whose record carries an individual's phone number and e-mail address (customers.v1). */
async function customerWithContact(as: Business): Promise<string> {
  const message = customerCreated(as, "Ada Obi");
  message.value.data.claims = { individualInformation: { firstName: "Ada", lastName: "Obi", ...ADA } };
  await h.bus.publish([message]);
  return message.key;
}

type FundingSourceType = "card-account" | "settlement-account";

/** A live physical program of `quantity` cards. */
async function physicalProgram(
  as: Business,
  fundingSourceType: FundingSourceType = "settlement-account",
  quantity = 5,
) {
  const program = await call(h, as, "POST", "/card-programs", {
    name: "Physical NGN",
    network: "verve",
    type: "physical",
    quantity,
    currency: "NGN",
    authorization: { fundingSourceType },
  });
  expect(program.status).toBe(201);
  expect(program.body.data.status).toBe("new");
  expect((await call(h, as, "POST", `/simulation/card-programs/${program.body.data.id}/go-live`)).status).toBe(200);
  return program.body.data as { id: string; authorization: { settlementAccount: string } };
}

interface PrintedCard {
  id: string;
  pan: string;
  last4: string;
  expiry: string;
}

const print = (as: Business, programId: string, body?: unknown) =>
  call(h, as, "POST", `/simulation/card-programs/${programId}/print-cards`, body);

async function printedCard(as: Business, programId: string): Promise<PrintedCard> {
  const printed = await print(as, programId);
  expect(printed.status).toBe(201);
  return printed.body.data[0];
}

const link = (as: Business, cardId: string, body: unknown, headers?: Record<string, string>) =>
  call(h, as, "POST", `/cards/${cardId}/link`, body, headers);

/** A business, a customer, a live physical program and one card printed for it. */
async function setUp(fundingSourceType: FundingSourceType = "settlement-account") {
  const as = newBusiness();
  const customer = await customerWithContact(as);
  const program = await physicalProgram(as, fundingSourceType);
  return { as, customer, program, card: await printedCard(as, program.id) };
}

describe("POST /simulation/card-programs/:id/print-cards", () => {
  it("prints cards of a live physical program: what is on their face, a Luhn-valid PAN among it", async () => {
    const as = newBusiness();
    const program = await physicalProgram(as, "settlement-account", 3);
    const printed = await print(as, program.id, { quantity: 2 });
    expect(printed.status).toBe(201);
    expect(printed.body.data).toHaveLength(2);
    for (const card of printed.body.data) {
      expect(card).toEqual({
        id: expect.stringMatching(/^c\.[1-9A-HJ-NP-Za-km-z]{17}$/),
        object: "card.printed",
        program: program.id,
        type: "physical",
        network: "verve",
        currency: "NGN",
        pan: expect.stringMatching(/^506099\d{10}$/),
        last4: card.pan.slice(-4),
        expiry: expect.stringMatching(/^\d{2}\/\d{2}$/),
      });
      expect(await call(h, as, "GET", `/cards/${card.id}`)).toMatchObject({ status: 404 });
    }
    expect(await print(as, program.id, { quantity: 2 })).toMatchObject({
      status: 422,
      body: { code: "invalid-state", message: expect.stringContaining("2 of its 3 cards printed") },
    });
    expect((await print(as, program.id)).status).toBe(201);
  });

  it("refuses a virtual program, a program not live yet, an unknown one, a bad quantity and a live key", async () => {
    const as = newBusiness();
    const virtual = await call(h, as, "POST", "/card-programs", {
      name: "Virtual",
      network: "verve",
      type: "virtual",
      currency: "NGN",
    });
    expect(await print(as, virtual.body.data.id)).toMatchObject({ status: 422, body: { code: "invalid-state" } });
    const notLive = await call(h, as, "POST", "/card-programs", {
      name: "Physical",
      network: "verve",
      type: "physical",
      currency: "NGN",
    });
    expect(await print(as, notLive.body.data.id)).toMatchObject({
      status: 422,
      body: { message: expect.stringContaining("not live") },
    });
    expect(await print(as, "c.prg.11111111111111111")).toMatchObject({ status: 404 });
    expect(await print(as, notLive.body.data.id, { quantity: 0 })).toMatchObject({
      status: 400,
      body: { errors: [{ path: "quantity", message: expect.any(String) }] },
    });
    expect(await print(newBusiness("live"), notLive.body.data.id)).toMatchObject({ status: 403 });
  });
});

describe("POST /cards/:id/link", () => {
  it("links by id with the documented body and answers the card record, inactive, then activated as any card", async () => {
    const { as, customer, program, card } = await setUp();
    const documented = {
      customer,
      reference: "card-0001",
      cardHolderName: "ADA OBI",
      fundingSource: {},
      controls: { allowedMcc: ["5541-5542,7654"], spendingLimits: [null] },
      metadata: { branch: "Yaba" },
    };
    const linked = await link(as, card.id, documented);
    expect(linked.status).toBe(200);
    const expected = {
      id: card.id,
      object: "card",
      type: "physical",
      network: "verve",
      status: "inactive",
      currency: "NGN",
      customer,
      program: program.id,
      reference: "card-0001",
      fundingSource: program.authorization.settlementAccount,
      details: { last4: card.last4, expiry: card.expiry, cardHolderName: "ADA OBI" },
      controls: { allowedMcc: ["5541-5542,7654"], spendingLimits: [] },
      metadata: { branch: "Yaba" },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    };
    expect(linked.body).toEqual({ code: "success", data: expected });
    expect((await call(h, as, "GET", `/cards/${card.id}`)).body.data).toEqual(expected);
    const secrets = (await call(h, as, "GET", `/cards/${card.id}/secrets`)).body.data;
    expect(secrets).toMatchObject({ pan: card.pan, last4: card.last4, expiry: card.expiry });
    const activated = await call(h, as, "POST", `/cards/${card.id}/activate`, { cvv: secrets.cvv, pin: "1234" });
    expect(activated.body.data.status).toBe("active");
  });

  it("links by PAN, opening the card's own account with a deposit channel on a card-account program", async () => {
    const { as, customer, card } = await setUp("card-account");
    const linked = await link(as, card.id, { customer, pan: card.pan, depositChannels: ["bank-account"] });
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({
      id: card.id,
      status: "inactive",
      customer,
      reference: card.id,
      fundingSource: expect.stringMatching(/^ac\./),
      details: { last4: card.last4, cardHolderName: "Ada Obi" },
    });
    const account = (await call(h, as, "GET", `/cards/${card.id}/funding-source`)).body.data;
    expect(account).toMatchObject({ id: linked.body.data.fundingSource, customer, currency: "NGN" });
    expect(account.depositChannels).toEqual([
      expect.objectContaining({ type: "bank-account", accountNumber: expect.stringMatching(/^\d{10}$/) }),
    ]);
  });

  it("takes a fundingSource account id; refuses an unknown account (404) and one in another currency (422)", async () => {
    const { as, customer, card } = await setUp();
    const open = async (currency: string) =>
      (await call(h, as, "POST", "/accounts", { name: `Main ${currency}`, currency, type: "main" })).body.data.id;
    const dollars = await open("USD");
    expect(await link(as, card.id, { customer, fundingSource: dollars })).toMatchObject({
      status: 422,
      body: { code: "invalid-state", message: expect.stringContaining("fundingSource") },
    });
    expect(await link(as, card.id, { customer, fundingSource: "ac.11111111111111111" })).toMatchObject({
      status: 404,
    });
    const naira = await open("NGN");
    const linked = await link(as, card.id, { customer, fundingSource: naira });
    expect(linked.body.data).toMatchObject({ status: "inactive", fundingSource: naira });
  });

  it("refuses a PAN that is not the card's (400, never echoing it), and links with the right one after", async () => {
    const { as, customer, card } = await setUp();
    const otherPan = card.pan.slice(0, -1) + String((Number(card.pan.at(-1)) + 1) % 10);
    const refused = await link(as, card.id, { customer, pan: otherPan });
    expect(refused).toMatchObject({
      status: 400,
      body: { code: "invalid-request", errors: [{ path: "pan", message: "is not this card's number" }] },
    });
    expect(JSON.stringify(refused.body)).not.toContain(otherPan);
    expect(JSON.stringify(refused.body)).not.toContain(card.pan);
    const spaced = card.pan.replace(/(\d{4})(?=\d)/g, "$1 ");
    expect((await link(as, card.id, { customer, pan: spaced })).status).toBe(200);
  });

  it("answers 409 for a card linked already and 422 for a virtual card", async () => {
    const { as, customer, card } = await setUp();
    expect((await link(as, card.id, { customer })).status).toBe(200);
    expect(await link(as, card.id, { customer })).toMatchObject({
      status: 409,
      body: { code: "conflict", message: `Card ${card.id} is already linked to customer ${customer}` },
    });
    const virtual = await issueCard(h, as);
    expect(await link(as, virtual.cardId, { customer })).toMatchObject({
      status: 422,
      body: { code: "invalid-state", message: expect.stringContaining("virtual") },
    });
  });

  it("answers 404 for an unknown card or customer, and 409 for a reference another card has", async () => {
    const { as, customer, card } = await setUp();
    expect(await link(as, UNKNOWN_CARD, { customer })).toMatchObject({
      status: 404,
      body: { code: "not-found", message: `Card ${UNKNOWN_CARD} was not found` },
    });
    expect(await link(as, card.id, { customer: UNKNOWN_CUSTOMER })).toMatchObject({
      status: 404,
      body: { message: `Customer ${UNKNOWN_CUSTOMER} was not found` },
    });
    expect(await link(newBusiness(), card.id, { customer })).toMatchObject({ status: 404 });
    const other = await issueCard(h, as);
    const taken = (await call(h, as, "GET", `/cards/${other.cardId}`)).body.data.reference;
    expect(await link(as, card.id, { customer, reference: taken })).toMatchObject({
      status: 409,
      body: { code: "conflict", message: expect.stringContaining(taken) },
    });
  });

  it("answers 400 with every problem for a bad body", async () => {
    const { as, card } = await setUp();
    const reply = await link(as, card.id, {
      pan: "4111-11x1",
      fundingSource: "savings",
      depositChannels: ["wallet"],
      controls: { allowedChannels: ["mail"] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid-request");
    expect(reply.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "controls.allowedChannels[0]",
      "customer",
      "depositChannels[0]",
      "fundingSource",
      "pan",
    ]);
    expect(await link(as, card.id, undefined)).toMatchObject({ status: 400 });
  });

  it("with an Idempotency-Key, a repeat answers the first link again", async () => {
    const { as, customer, card } = await setUp();
    const first = await link(as, card.id, { customer }, keyed("link-1"));
    expect(first.status).toBe(200);
    const again = await link(as, card.id, { customer }, keyed("link-1"));
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers?.get("idempotent-replayed")).toBe("true");
  });
});

describe("POST /cards/:id/enroll/safetoken and /enroll/3ds", () => {
  /** A linked, activated card of a customer with a phone number and e-mail address on record. */
  async function activeCard() {
    const { as, customer, card } = await setUp();
    await link(as, card.id, { customer });
    const { cvv } = (await call(h, as, "GET", `/cards/${card.id}/secrets`)).body.data;
    await call(h, as, "POST", `/cards/${card.id}/activate`, { cvv, pin: "1234" });
    return { as, customer, cardId: card.id };
  }
  const enroll = (as: Business, cardId: string, type: string, body?: unknown, headers?: Record<string, string>) =>
    call(h, as, "POST", `/cards/${cardId}/enroll/${type}`, body, headers);

  const enrollment = (cardId: string, type: string, contact: Record<string, string>) => ({
    object: "card.enrollment",
    card: cardId,
    type,
    ...contact,
    status: "enrolled",
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });

  it("enrols with the customer's phone number and e-mail by default, or with those given; GET shows both", async () => {
    const { as, cardId } = await activeCard();
    const safetoken = await enroll(as, cardId, "safetoken", {});
    expect(safetoken).toMatchObject({ status: 201, body: { code: "success" } });
    expect(safetoken.body.data).toEqual(enrollment(cardId, "safetoken", ADA));
    const given = { phoneNumber: "+2348090000001", email: "cards@example.com" };
    const threeDs = await enroll(as, cardId, "3ds", given);
    expect(threeDs.status).toBe(201);
    expect(threeDs.body.data).toEqual(enrollment(cardId, "3ds", given));
    const card = (await call(h, as, "GET", `/cards/${cardId}`)).body.data;
    expect(card.enrollments).toEqual([safetoken.body.data, threeDs.body.data]);
  });

  it("enrolling again replaces the contact details (200), a missing one taken from the customer", async () => {
    const { as, cardId } = await activeCard();
    await enroll(as, cardId, "3ds");
    const again = await enroll(as, cardId, "3ds", { phoneNumber: "+2348090000002" });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(enrollment(cardId, "3ds", { phoneNumber: "+2348090000002", email: ADA.email }));
  });

  it("is refused before the card is active, and once it is blocked (422)", async () => {
    const { as, customer, card } = await setUp();
    await link(as, card.id, { customer });
    expect(await enroll(as, card.id, "safetoken", {})).toMatchObject({
      status: 422,
      body: { code: "invalid-state", message: `Card ${card.id} is inactive: a card is enrolled once it is active` },
    });
    const active = await activeCard();
    await call(h, active.as, "POST", `/cards/${active.cardId}/block`);
    expect(await enroll(active.as, active.cardId, "3ds", {})).toMatchObject({ status: 422 });
  });

  it("needs a phone number or e-mail when the customer has none on record (422), and takes one given", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as); // its customer was announced without claims
    expect(await enroll(as, card.cardId, "safetoken", {})).toMatchObject({
      status: 422,
      body: { message: `Give phoneNumber or email: customer ${card.customerId} has neither on record` },
    });
    const reply = await enroll(as, card.cardId, "safetoken", { email: "holder@example.com" });
    expect(reply.body.data).toEqual(enrollment(card.cardId, "safetoken", { email: "holder@example.com" }));
  });

  it("answers 404 for an unknown card and 400 for a bad phone number or e-mail", async () => {
    const { as, cardId } = await activeCard();
    expect(await enroll(as, UNKNOWN_CARD, "safetoken", {})).toMatchObject({ status: 404 });
    const bad = await enroll(as, cardId, "3ds", { phoneNumber: "08031234567", email: "not-an-address" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["email", "phoneNumber"]);
    expect(await enroll(as, cardId, "sms", {})).toMatchObject({ status: 404 });
  });

  it("with an Idempotency-Key, a repeat answers the first enrolment again", async () => {
    const { as, cardId } = await activeCard();
    const first = await enroll(as, cardId, "safetoken", {}, keyed("enrol-1"));
    const again = await enroll(as, cardId, "safetoken", {}, keyed("enrol-1"));
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers?.get("idempotent-replayed")).toBe("true");
  });
});

// A customer made moments ago may still be on its way to the engine's projection: linking waits for it.
describe("a customer announced just now", () => {
  it("is waited for", async () => {
    const as = newBusiness();
    const program = await physicalProgram(as);
    const card = await printedCard(as, program.id);
    const message = customerCreated(as, "Late Customer");
    setTimeout(() => void h.bus.publish([message]), 200);
    expect((await link(as, card.id, { customer: message.key })).status).toBe(200);
  });
});
