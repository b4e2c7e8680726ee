/**
 * FX as integrations written for the original interface use it (compatibility notes, "Tools" and card create/fund):
 * `GET /tools/fx/rates` (all pairs, or `?from=USD&to=NGN`), `POST /tools/fx/quotes {from, to, amount}` (amount in the
 * `to` currency), and the quote's hash sent as `fxHash` to fund a card from an account in another currency.
 * The sandbox rates (src/fx/rates-provider.ts): mid 1 USD = 1,500 NGN, 1 % spread: USD→NGN 1485, NGN→USD 0.00066006.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import {
  announceCustomer,
  balanceOf,
  call,
  newBusiness,
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

const quote = (as: Business, body: unknown, headers?: Record<string, string>) =>
  call(h, as, "POST", "/tools/fx/quotes", body, headers);

/** A live program in `currency`; answers its id and its settlement account (the business's default in `currency`). */
async function program(as: Business, currency: "NGN" | "USD", fundingSourceType = "card-account") {
  const created = await call(h, as, "POST", "/card-programs", {
    name: `${currency} virtual`,
    network: "verve",
    type: "virtual",
    currency,
    authorization: { fundingSourceType, timeoutDefault: "decline" },
  });
  expect(created.status).toBe(201);
  return {
    id: created.body.data.id as string,
    settlement: created.body.data.authorization.settlementAccount as string,
  };
}

async function payIn(as: Business, account: string, amount: number) {
  const record = (await call(h, as, "GET", `/accounts/${account}`)).body.data;
  const paid = await call(h, as, "POST", "/simulation/payments/pay-in", {
    accountNumber: record.depositChannels[0].accountNumber,
    amount,
  });
  expect(paid.status).toBeLessThan(300);
}

/** Every ledger invariant, and every entry in its account's own currency (each movement balanced per currency). */
async function expectBalancedBooks() {
  expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
  const crossed = await h.pg.db.query(
    `SELECT e.id FROM engine.ledger_entries e JOIN engine.accounts a ON a.id = e.account_id WHERE a.currency <> e.currency
     UNION ALL
     SELECT m.id FROM engine.ledger_movements m JOIN engine.ledger_entries e ON e.movement_id = m.id
      WHERE e.currency <> m.currency`,
  );
  expect(crossed.rows).toEqual([]);
}

const logsOf = async (as: Business, account: string) =>
  (await call(h, as, "GET", `/accounts/${account}/logs`)).body.data as Array<Record<string, unknown>>;

describe("GET /tools/fx/rates", () => {
  it("lists every pair with the sandbox's exact rates, as decimal strings", async () => {
    const rates = await call(h, newBusiness(), "GET", "/tools/fx/rates");
    expect(rates.status).toBe(200);
    expect(rates.body).toEqual({
      code: "success",
      data: [
        { object: "fx.rate", from: "USD", to: "NGN", rate: "1485" },
        { object: "fx.rate", from: "NGN", to: "USD", rate: "0.00066006" },
      ],
      metadata: { hasMore: false },
    });
  });

  it("answers one pair with ?from=USD&to=NGN, and filters by one side", async () => {
    const pair = await call(h, newBusiness(), "GET", "/tools/fx/rates?from=USD&to=NGN");
    expect(pair).toMatchObject({
      status: 200,
      body: { data: { object: "fx.rate", from: "USD", to: "NGN", rate: "1485" } },
    });
    const fromNaira = await call(h, newBusiness(), "GET", "/tools/fx/rates?from=NGN");
    expect(fromNaira.body.data).toEqual([{ object: "fx.rate", from: "NGN", to: "USD", rate: "0.00066006" }]);
  });

  it("refuses an unknown currency or a pair of one currency with a 400 naming the field", async () => {
    const unknown = await call(h, newBusiness(), "GET", "/tools/fx/rates?from=EUR&to=NGN");
    expect(unknown).toMatchObject({ status: 400, body: { code: "invalid-request", errors: [{ path: "from" }] } });
    const same = await call(h, newBusiness(), "GET", "/tools/fx/rates?from=USD&to=USD");
    expect(same).toMatchObject({ status: 400, body: { errors: [{ path: "to" }] } });
  });
});

describe("POST /tools/fx/quotes", () => {
  it("quotes the documented request (NGN→USD, amount 1100 = $11): the naira cost rounded up, for 5 minutes", async () => {
    const answer = await quote(newBusiness(), { from: "NGN", to: "USD", amount: 1_100 });
    expect(answer.status).toBe(201);
    const q = answer.body.data;
    expect(q).toMatchObject({
      object: "fx.quote",
      from: "NGN",
      to: "USD",
      rate: "0.00066006",
      amount: 1_100,
      // $11 / 0.00066006 = ₦16,665.1516…: 1,666,516 kobo.
      debitAmount: 1_666_516,
    });
    expect(q.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(q.expiresAt) - Date.parse(q.createdAt)).toBe(5 * 60 * 1000);
    expect(q.usedAt).toBeUndefined();
  });

  it("answers the same quote to the same Idempotency-Key", async () => {
    const as = newBusiness();
    const body = { from: "USD", to: "NGN", amount: 100_000 };
    const first = await quote(as, body, { "idempotency-key": "fx-quote-1" });
    const again = await quote(as, body, { "idempotency-key": "fx-quote-1" });
    expect(first.body.data.debitAmount).toBe(68);
    expect(again).toMatchObject({ status: 201, body: { data: { hash: first.body.data.hash } } });
    expect((await quote(as, body)).body.data.hash).not.toBe(first.body.data.hash);
  });

  it.each([
    ["no amount", { from: "USD", to: "NGN" }, "amount"],
    ["no from", { to: "NGN", amount: 100 }, "from"],
    ["an amount of 0", { from: "USD", to: "NGN", amount: 0 }, "amount"],
    ["a fractional amount", { from: "USD", to: "NGN", amount: 10.5 }, "amount"],
    ["an unknown currency", { from: "USD", to: "EUR", amount: 100 }, "to"],
    ["one currency", { from: "NGN", to: "NGN", amount: 100 }, "to"],
  ])("refuses %s with a 400 naming the field", async (_, body, path) => {
    const answer = await quote(newBusiness(), body);
    expect(answer).toMatchObject({ status: 400, body: { code: "invalid-request" } });
    expect(answer.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("refuses an amount whose cost would exceed the largest amount", async () => {
    const answer = await quote(newBusiness(), { from: "NGN", to: "USD", amount: 1_000_000_000_000_000 });
    expect(answer).toMatchObject({ status: 422, body: { code: "amount-too-large" } });
  });
});

describe("funding a naira card from a dollar account with fxHash", () => {
  /** A business with $100 in its USD settlement account and a customer; an NGN card-account program. */
  async function setup() {
    const as = newBusiness();
    const dollars = (await program(as, "USD")).settlement;
    await payIn(as, dollars, 10_000);
    const naira = await program(as, "NGN");
    const customer = await announceCustomer(h, as);
    return { as, dollars, naira, customer };
  }

  it("POST /cards and POST /cards/:id/fund convert at the quote; each movement balances in its own currency", async () => {
    const { as, dollars, naira, customer } = await setup();
    const first = (await quote(as, { from: "USD", to: "NGN", amount: 1_485_000 })).body.data;
    expect(first.debitAmount).toBe(1_000);

    const created = await call(h, as, "POST", "/cards", {
      program: naira.id,
      customer,
      reference: "naira-card-1",
      amount: 1_485_000,
      debitSource: dollars,
      debitCurrency: "USD",
      fxHash: first.hash,
    });
    expect(created).toMatchObject({ status: 201, body: { data: { object: "card", currency: "NGN" } } });
    const cardId = created.body.data.id as string;
    const cardAccount = created.body.data.fundingSource as string;
    expect(await balanceOf(h, as, dollars)).toMatchObject({ available: 9_000, ledger: 9_000 });
    expect(await balanceOf(h, as, cardAccount)).toMatchObject({ available: 1_485_000 });

    // ₦1,000 costs $0.6734…: 68 cents, rounded up.
    const second = (await quote(as, { from: "USD", to: "NGN", amount: 100_000 })).body.data;
    const funded = await call(h, as, "POST", `/cards/${cardId}/fund`, {
      amount: 100_000,
      debitSource: dollars,
      fxHash: second.hash,
    });
    expect(funded).toMatchObject({
      status: 200,
      body: { data: { object: "balance", account: cardAccount, currency: "NGN", available: 1_585_000 } },
    });
    expect(await balanceOf(h, as, dollars)).toMatchObject({ available: 8_932 });

    const debits = (await logsOf(as, dollars)).filter((e) => e.kind === "card-funding");
    expect(debits.map((e) => [e.amount, e.currency, e.reference]).sort()).toEqual(
      [
        [-1_000, "USD", cardId],
        [-68, "USD", cardId],
      ].sort(),
    );
    const credits = (await logsOf(as, cardAccount)).filter((e) => e.kind === "card-funding");
    expect(credits.map((e) => [e.amount, e.currency]).sort()).toEqual(
      [
        [1_485_000, "NGN"],
        [100_000, "NGN"],
      ].sort(),
    );

    // The conversion accounts hold the platform's position per currency, and the API does not show them.
    const position = await h.pg.db.query<{ id: string; currency: string; net: string }>(
      `SELECT a.id, a.currency, sum(e.amount)::text AS net FROM engine.accounts a
         JOIN engine.ledger_entries e ON e.account_id = a.id
        WHERE a.business_id = $1 AND a.role = 'fx-conversion' GROUP BY a.id, a.currency ORDER BY a.currency`,
      [as.businessId],
    );
    expect(position.rows.map((r) => [r.currency, r.net])).toEqual([
      ["NGN", "-1585000"],
      ["USD", "1068"],
    ]);
    expect((await call(h, as, "GET", `/accounts/${position.rows[0]!.id}`)).status).toBe(404);
    const listed = (await call(h, as, "GET", "/accounts?limit=100")).body.data as Array<{ id: string }>;
    expect(listed.map((a) => a.id)).not.toContain(position.rows[0]!.id);
    await expectBalancedBooks();
  });

  it("funds a settlement-account program's cards across currencies too (the settlement account is credited)", async () => {
    const { as, dollars, customer } = await setup();
    const naira = await program(as, "NGN", "settlement-account");
    const q = (await quote(as, { from: "USD", to: "NGN", amount: 297_000 })).body.data;
    const created = await call(h, as, "POST", "/cards", {
      program: naira.id,
      customer,
      reference: "shared-naira",
      amount: 297_000,
      debitSource: dollars,
      fxHash: q.hash,
    });
    expect(created).toMatchObject({ status: 201, body: { data: { fundingSource: naira.settlement } } });
    expect(await balanceOf(h, as, dollars)).toMatchObject({ available: 9_800 });
    expect(await balanceOf(h, as, naira.settlement)).toMatchObject({ available: 297_000 });
    await expectBalancedBooks();
  });

  it("refuses a missing, unknown, used, expired or mismatched fxHash; nothing moves and no card is made", async () => {
    const { as, dollars, naira, customer } = await setup();
    const issue = (extra: Record<string, unknown>) =>
      call(h, as, "POST", "/cards", {
        program: naira.id,
        customer,
        reference: `r-${Math.random()}`,
        debitSource: dollars,
        amount: 1_485_000,
        ...extra,
      });
    const good = (await quote(as, { from: "USD", to: "NGN", amount: 1_485_000 })).body.data.hash as string;

    const missing = await issue({});
    expect(missing).toMatchObject({ status: 422, body: { code: "fx-quote-required", errors: [{ path: "fxHash" }] } });
    expect(missing.body.message).toContain("POST /tools/fx/quotes");
    expect(await issue({ fxHash: "f".repeat(64) })).toMatchObject({
      status: 404,
      body: { errors: [{ path: "fxHash" }] },
    });
    expect(await issue({ fxHash: good, amount: 1_485_001 })).toMatchObject({
      status: 422,
      body: { code: "fx-quote-mismatch" },
    });
    const otherWay = (await quote(as, { from: "NGN", to: "USD", amount: 1_485_000 })).body.data.hash;
    expect(await issue({ fxHash: otherWay })).toMatchObject({ status: 422, body: { code: "fx-quote-mismatch" } });
    expect(await issue({ fxHash: good, debitCurrency: "NGN" })).toMatchObject({
      status: 422,
      body: { code: "invalid-state" },
    });
    const othersQuote = (await quote(newBusiness(), { from: "USD", to: "NGN", amount: 1_485_000 })).body.data.hash;
    expect((await issue({ fxHash: othersQuote })).status).toBe(404);

    const expiring = (await quote(as, { from: "USD", to: "NGN", amount: 1_485_000 })).body.data.hash;
    await h.pg.db.query("UPDATE engine.fx_quotes SET expires_at = now() - interval '1 second' WHERE hash = $1", [
      expiring,
    ]);
    expect(await issue({ fxHash: expiring })).toMatchObject({ status: 422, body: { code: "fx-quote-expired" } });

    expect(await balanceOf(h, as, dollars)).toMatchObject({ available: 10_000 });
    expect((await call(h, as, "GET", "/cards")).body.data).toEqual([]);

    // The good quote was never spent by the refused requests: it funds once, then is used.
    expect((await issue({ fxHash: good })).status).toBe(201);
    expect(await issue({ fxHash: good })).toMatchObject({ status: 422, body: { code: "fx-quote-used" } });
    expect(await balanceOf(h, as, dollars)).toMatchObject({ available: 9_000 });
    await expectBalancedBooks();
  });

  it("/fund refuses without a usable fxHash too; a quote refused for insufficient funds stays usable", async () => {
    const { as, dollars, naira, customer } = await setup();
    const card = await call(h, as, "POST", "/cards", { program: naira.id, customer, reference: "unfunded" });
    const fund = (body: Record<string, unknown>) =>
      call(h, as, "POST", `/cards/${card.body.data.id}/fund`, { debitSource: dollars, ...body });

    expect(await fund({ amount: 100_000 })).toMatchObject({ status: 422, body: { code: "fx-quote-required" } });
    const tooDear = (await quote(as, { from: "USD", to: "NGN", amount: 29_700_000 })).body.data;
    expect(tooDear.debitAmount).toBe(20_000);
    expect(await fund({ amount: 29_700_000, fxHash: tooDear.hash })).toMatchObject({
      status: 422,
      body: { code: "insufficient-funds" },
    });
    expect(await balanceOf(h, as, dollars)).toMatchObject({ available: 10_000 });

    await payIn(as, dollars, 10_000);
    expect(await fund({ amount: 29_700_000, fxHash: tooDear.hash })).toMatchObject({
      status: 200,
      body: { data: { available: 29_700_000 } },
    });
    expect(await balanceOf(h, as, dollars)).toMatchObject({ available: 0 });
    await expectBalancedBooks();
  });

  it("a quote sent by two fundings at once funds one of them", async () => {
    const { as, dollars, naira, customer } = await setup();
    const card = await call(h, as, "POST", "/cards", { program: naira.id, customer, reference: "raced" });
    const hash = (await quote(as, { from: "USD", to: "NGN", amount: 148_500 })).body.data.hash;
    const body = { amount: 148_500, debitSource: dollars, fxHash: hash };
    const answers = await Promise.all(
      [1, 2, 3].map(() => call(h, as, "POST", `/cards/${card.body.data.id}/fund`, body)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422]);
    expect(await balanceOf(h, as, dollars)).toMatchObject({ available: 9_900 });
    await expectBalancedBooks();
  });

  it("funding in the card's own currency needs no fxHash, and ignores one", async () => {
    const as = newBusiness();
    const naira = await program(as, "NGN");
    await payIn(as, naira.settlement, 50_000);
    const customer = await announceCustomer(h, as);
    const created = await call(h, as, "POST", "/cards", {
      program: naira.id,
      customer,
      reference: "same-currency",
      amount: 20_000,
      debitSource: naira.settlement,
      debitCurrency: "NGN",
      fxHash: "not-a-quote",
    });
    expect(created.status).toBe(201);
    expect(await balanceOf(h, as, naira.settlement)).toMatchObject({ available: 30_000 });
  });
});

describe("live mode", () => {
  it("refuses FX with 403 fx-provider-not-configured until a live rates provider is configured", async () => {
    const live = newBusiness("live");
    for (const answer of [
      await call(h, live, "GET", "/tools/fx/rates"),
      await call(h, live, "GET", "/tools/fx/rates?from=USD&to=NGN"),
      await quote(live, { from: "USD", to: "NGN", amount: 1_485_000 }),
    ]) {
      expect(answer).toMatchObject({ status: 403, body: { statusCode: 403, code: "fx-provider-not-configured" } });
      expect(answer.body.message).toContain("liveFxRates");
    }
  });

  it("does not take a test-mode quote", async () => {
    const test = newBusiness();
    const live: Business = { businessId: test.businessId, mode: "live" };
    const hash = (await quote(test, { from: "USD", to: "NGN", amount: 1_485_000 })).body.data.hash;
    const dollars = (await program(live, "USD")).settlement;
    const naira = await program(live, "NGN");
    const customer = await announceCustomer(h, live);
    const created = await call(h, live, "POST", "/cards", {
      program: naira.id,
      customer,
      reference: "live-card",
      amount: 1_485_000,
      debitSource: dollars,
      fxHash: hash,
    });
    expect(created).toMatchObject({ status: 404, body: { errors: [{ path: "fxHash" }] } });
  });
});
