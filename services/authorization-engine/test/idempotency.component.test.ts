import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
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

const DAY_MS = 24 * 60 * 60 * 1000;
let h: EngineHarness;
let clockShift = 0;
beforeAll(async () => {
  h = await startEngine({ now: () => Date.now() + clockShift });
});
afterAll(async () => {
  await h?.stop();
});

const keyed = (key: string) => ({ "idempotency-key": key });
const replayed = (reply: { headers?: Headers }) => reply.headers?.get("idempotent-replayed") ?? null;

const accountNumberOf = async (as: Business, account: string) =>
  (await call(h, as, "GET", `/accounts/${account}`)).body.data.depositChannels[0].accountNumber as string;

/** A card-account card with nothing on it, and `funds` in the settlement account to fund it from. */
async function cardToFund(as: Business, funds = 50_000): Promise<IssuedCard> {
  const card = await issueCard(h, as, { fundingSourceType: "card-account", funds: 0 });
  const accountNumber = await accountNumberOf(as, card.settlementAccount);
  await call(h, as, "POST", "/simulation/payments/pay-in", { accountNumber, amount: funds });
  return card;
}

const fund = (as: Business, card: IssuedCard, amount: number, key: string) =>
  call(h, as, "POST", `/cards/${card.cardId}/fund`, { amount, debitSource: card.settlementAccount }, keyed(key));

describe("Idempotency-Key on POST /cards/:id/fund", () => {
  it("a repeat answers the first answer again, marked replayed, and moves the money once", async () => {
    const as = newBusiness();
    const card = await cardToFund(as);
    const first = await fund(as, card, 10_000, "fund-1");
    expect(first.status).toBe(200);
    expect(replayed(first)).toBeNull();
    const again = await fund(as, card, 10_000, "fund-1");
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(replayed(again)).toBe("true");
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000 });
    expect(await balanceOf(h, as, card.settlementAccount)).toMatchObject({ available: 40_000 });
  });

  it("a refusal is answered again too: the key stays bound to its first answer", async () => {
    const as = newBusiness();
    const card = await cardToFund(as, 1_000);
    expect(await fund(as, card, 5_000, "too-much")).toMatchObject({
      status: 422,
      body: { code: "insufficient-funds" },
    });
    await call(h, as, "POST", "/simulation/payments/pay-in", {
      accountNumber: await accountNumberOf(as, card.settlementAccount),
      amount: 10_000,
    });
    const again = await fund(as, card, 5_000, "too-much");
    expect(again).toMatchObject({ status: 422, body: { code: "insufficient-funds" } });
    expect(replayed(again)).toBe("true");
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 0 });
  });

  it("the key with another body, method or path is a 422 idempotency-key-reused, and nothing moves", async () => {
    const as = newBusiness();
    const card = await cardToFund(as);
    await fund(as, card, 10_000, "fund-2");
    expect(await fund(as, card, 20_000, "fund-2")).toMatchObject({
      status: 422,
      body: { statusCode: 422, code: "idempotency-key-reused" },
    });
    const other = await call(h, as, "POST", `/cards/${card.cardId}/block`, {}, keyed("fund-2"));
    expect(other).toMatchObject({ status: 422, body: { code: "idempotency-key-reused" } });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000 });
    expect((await call(h, as, "GET", `/cards/${card.cardId}`)).body.data.status).toBe("active");
  });

  it("refuses a key that is empty, longer than 255 characters or not printable ASCII: 400", async () => {
    const as = newBusiness();
    const card = await cardToFund(as);
    for (const key of ["", "k".repeat(256), "tab\there"]) {
      expect(await fund(as, card, 1_000, key)).toMatchObject({
        status: 400,
        body: { statusCode: 400, code: "invalid-idempotency-key" },
      });
    }
    expect((await fund(as, card, 1_000, "k".repeat(255))).status).toBe(200);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 1_000 });
  });

  it("a key is forgotten after 24 hours: the same request then funds again", async () => {
    const as = newBusiness();
    const card = await cardToFund(as);
    await fund(as, card, 10_000, "fund-3");
    clockShift = DAY_MS - 60_000;
    try {
      expect(replayed(await fund(as, card, 10_000, "fund-3"))).toBe("true");
      clockShift = DAY_MS + 1;
      const later = await fund(as, card, 10_000, "fund-3");
      expect(later.status).toBe(200);
      expect(replayed(later)).toBeNull();
    } finally {
      clockShift = 0;
    }
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 20_000 });
  });

  it("keys are per business and mode: the same key elsewhere is a request of its own", async () => {
    const one = newBusiness();
    const other = newBusiness();
    const live = { businessId: one.businessId, mode: "live" as const };
    const cards = [await cardToFund(one), await cardToFund(other)];
    expect(replayed(await fund(one, cards[0]!, 10_000, "shared"))).toBeNull();
    const elsewhere = await fund(other, cards[1]!, 20_000, "shared");
    expect(elsewhere.status).toBe(200);
    expect(replayed(elsewhere)).toBeNull();
    // The same path and key in live mode: not a replay of test mode's answer (that card is not found there).
    expect(await fund(live, cards[0]!, 10_000, "shared")).toMatchObject({ status: 404 });
    expect(await balanceOf(h, one, cards[0]!.fundingAccount)).toMatchObject({ available: 10_000 });
    expect(await balanceOf(h, other, cards[1]!.fundingAccount)).toMatchObject({ available: 20_000 });
  });
});

describe("Idempotency-Key on card creation and pay-ins", () => {
  it("POST /cards sent twice with a key issues one card and answers it twice", async () => {
    const as = newBusiness();
    const issued = await issueCard(h, as);
    const body = { program: issued.programId, customer: await announceCustomer(h, as), reference: newId("message") };
    const first = await call(h, as, "POST", "/cards", body, keyed("card-1"));
    expect(first.status).toBe(201);
    const again = await call(h, as, "POST", "/cards", body, keyed("card-1"));
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(replayed(again)).toBe("true");
    const listed = await call(h, as, "GET", `/cards?filter=reference:${body.reference}&countTotal`);
    expect(listed.body.data).toHaveLength(1);
  });

  it("a pay-in sent twice with a key (and no reference) credits once", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 0 });
    const payIn = { accountNumber: await accountNumberOf(as, card.settlementAccount), amount: 7_000 };
    const first = await call(h, as, "POST", "/simulation/payments/pay-in", payIn, keyed("pay-in-1"));
    const again = await call(h, as, "POST", "/simulation/payments/pay-in", payIn, keyed("pay-in-1"));
    expect(first).toMatchObject({ status: 200, body: { data: { balance: { available: 7_000 } } } });
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(replayed(again)).toBe("true");
    expect(await balanceOf(h, as, card.settlementAccount)).toMatchObject({ available: 7_000 });
  });
});

describe("a repeat while the first is still under way", () => {
  it("answers 409 idempotency-key-in-progress; once the first answers, a repeat replays it", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const path = `/simulation/cards/${card.cardId}/request-authorization/capture`;
    const capture = { amount: 1_000, channel: "online" };
    const first = call(h, as, "POST", path, capture, keyed("capture-1"));
    const question = await nextEvent(
      h,
      new Set(),
      (e) => e.event === "card.authorization.request" && e.data.card === card.cardId,
    );
    const meanwhile = await call(h, as, "POST", path, capture, keyed("capture-1"));
    expect(meanwhile).toMatchObject({ status: 409, body: { code: "idempotency-key-in-progress" } });
    expect(Number(meanwhile.headers?.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await answerDecision(h, as, question, { body: { action: "approve" } });
    const answered = await first;
    expect(answered).toMatchObject({ status: 200, body: { data: { status: "approved" } } });
    const again = await call(h, as, "POST", path, capture, keyed("capture-1"));
    expect(again).toMatchObject({ status: 200, body: answered.body });
    expect(replayed(again)).toBe("true");
    const authorizations = await call(h, as, "GET", `/card-authorizations?filter=card:${card.cardId}`);
    expect(authorizations.body.data).toHaveLength(1);
  });
});

describe("a simulated network request whose process died after taking the authorization", () => {
  it("a retry with the key once the claim lapsed answers that authorization, not a second one", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const path = `/simulation/cards/${card.cardId}/request-authorization/capture`;
    const capture = { amount: 1_500, channel: "pos" };
    const first = call(h, as, "POST", path, capture, keyed("capture-dead"));
    const question = await nextEvent(
      h,
      new Set(),
      (e) => e.event === "card.authorization.request" && e.data.card === card.cardId,
    );
    await answerDecision(h, as, question, { body: { action: "approve" } });
    const answered = await first;
    // What a process killed after its commit leaves: the effect recorded, no answer, a claim nobody renews.
    await h.pg.db.query(
      `UPDATE engine.idempotency_keys SET answer_status = NULL, answer_body = NULL, claim = 'dead', claimed_until = now()
       WHERE business_id = $1 AND key = 'capture-dead'`,
      [as.businessId],
    );
    const retry = await call(h, as, "POST", path, capture, keyed("capture-dead"));
    expect(retry).toMatchObject({ status: 200, body: { data: { id: answered.body.data.id, status: "approved" } } });
    const authorizations = await call(h, as, "GET", `/card-authorizations?filter=card:${card.cardId}`);
    expect(authorizations.body.data).toHaveLength(1);
  });
});
