/**
 * Disputes of card transactions as integrations written for the original interface send them (compatibility notes,
 * "Disputes"): POST /disputes {reason, source, text?, documents?, user?}, GET, PUT evidence, PUT close with {}; and
 * what the platform adds: the outcome (test mode: /simulation/disputes/:id/win and /lose), the provisional credit
 * and its ledger movements, the events, and the guard rails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import {
  announceCustomer,
  answerDecision,
  balanceOf,
  call,
  newBusiness,
  nextEvent,
  startEngine,
  type Business,
  type Envelope,
  type EngineHarness,
} from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.stop();
});

const seen = new Set<string>();
const UNKNOWN_AUTHORIZATION = "c.auth.11111111111111111";
const EVIDENCE = ["https://wallet.example.com/evidence/receipt-1.pdf", "http://wallet.example.com/chat.png"];

interface DisputableCard {
  cardId: string;
  programId: string;
  fundingAccount: string;
}

/** A live virtual program (with these disputes settings) and an active card funded with `funds` through it. */
async function disputableCard(
  as: Business,
  disputes?: Record<string, unknown>,
  funds = 100_000,
): Promise<DisputableCard> {
  const customer = await announceCustomer(h, as);
  const program = await call(h, as, "POST", "/card-programs", {
    name: "Disputable",
    network: "verve",
    type: "virtual",
    currency: "NGN",
    authorization: {
      fundingSourceType: "settlement-account",
      timeoutDefault: "decline",
      ...(disputes && { disputes }),
    },
  });
  expect(program.status, JSON.stringify(program.body)).toBe(201);
  const settlement = (await call(h, as, "GET", `/accounts/${program.body.data.authorization.settlementAccount}`)).body
    .data;
  if (funds > 0) {
    const accountNumber = settlement.depositChannels[0].accountNumber;
    expect((await call(h, as, "POST", "/simulation/payments/pay-in", { accountNumber, amount: funds })).status).toBe(
      200,
    );
  }
  const card = await call(h, as, "POST", "/cards", {
    program: program.body.data.id,
    customer,
    reference: `card-${Math.random().toString(36).slice(2)}`,
  });
  expect(card.status, JSON.stringify(card.body)).toBe(201);
  const secrets = await call(h, as, "GET", `/cards/${card.body.data.id}/secrets`);
  await call(h, as, "POST", `/cards/${card.body.data.id}/activate`, { cvv: secrets.body.data.cvv, pin: "1234" });
  return { cardId: card.body.data.id, programId: program.body.data.id, fundingAccount: card.body.data.fundingSource };
}

/** A capture the receiver approves; answers the authorization id. */
async function approvedCapture(as: Business, card: DisputableCard, amount = 10_000): Promise<string> {
  const reply = call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, {
    amount,
    channel: "pos",
  });
  const question = await nextEvent(
    h,
    seen,
    (e) => e.event === "card.authorization.request" && (e.data as { card?: string }).card === card.cardId,
  );
  await answerDecision(h, as, question, { body: { action: "approve" } });
  const authorization = (await reply).body.data;
  expect(authorization.status).toBe("approved");
  return authorization.id;
}

const dispute = (as: Business, body: unknown) => call(h, as, "POST", "/disputes", body);
const available = async (as: Business, account: string) => (await balanceOf(h, as, account)).available;
const disputeEvent = (kind: string, id: string): Promise<Envelope> =>
  nextEvent(h, seen, (e) => e.event === kind && (e.data as { id?: string }).id === id);

async function expectBalancedBooks() {
  expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
}

/** The sum of the business's disputes account entries: the provisional credit outstanding (negative). */
async function disputesAccountSum(as: Business): Promise<number> {
  const { rows } = await h.pg.db.query<{ total: string }>(
    `SELECT COALESCE(sum(e.amount), 0) AS total FROM engine.ledger_entries e JOIN engine.accounts a ON a.id = e.account_id
      WHERE a.business_id = $1 AND a.mode = $2 AND a.role = 'disputes'`,
    [as.businessId, as.mode],
  );
  return Number(rows[0]!.total);
}

describe("a dispute in the documented form", () => {
  it("POST, GET, list with a filter, PUT evidence, PUT close: the documented fields, status open → closed, events", async () => {
    const as = newBusiness();
    const card = await disputableCard(as);
    const source = await approvedCapture(as, card, 10_000);

    const created = await dispute(as, {
      reason: "value-not-received",
      source,
      text: "The order never arrived.",
      documents: EVIDENCE,
      user: "usr.2tW9aQ3mLk7XpRs2B",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const record = created.body.data;
    expect(record).toEqual({
      id: expect.stringMatching(/^dsp\.[1-9A-HJ-NP-Za-km-z]{17}$/),
      object: "dispute",
      reason: "value-not-received",
      source,
      text: "The order never arrived.",
      documents: EVIDENCE,
      user: "usr.2tW9aQ3mLk7XpRs2B",
      status: "open",
      amount: 10_000,
      currency: "NGN",
      card: card.cardId,
      customer: expect.stringMatching(/^cus\./),
      account: card.fundingAccount,
      provisionalCredit: 0,
      owed: 0,
      createdAt: expect.any(String),
      updatedAt: record.createdAt,
    });
    expect((await disputeEvent("dispute.created", record.id)).data).toEqual(record);

    expect((await call(h, as, "GET", `/disputes/${record.id}`)).body).toEqual({ code: "success", data: record });
    const listed = await call(h, as, "GET", `/disputes?filter=source:${source}&countTotal`);
    expect(listed.body).toMatchObject({ code: "success", data: [record], metadata: { hasMore: false, totalCount: 1 } });
    const expanded = await call(h, as, "GET", "/disputes?filter=status:open&expand=source");
    expect(expanded.body.data[0].source).toMatchObject({ id: source, object: "card.authorization" });

    // Only text, documents and user change; anything else in the body is ignored.
    const documents = [EVIDENCE[0]!, "https://wallet.example.com/evidence/reply.pdf"];
    const updated = await call(h, as, "PUT", `/disputes/${record.id}`, {
      text: "The merchant stopped answering.",
      documents,
      reason: "fraudulent",
      amount: 1,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({
      ...record,
      text: "The merchant stopped answering.",
      documents,
      updatedAt: expect.any(String),
    });
    expect((await disputeEvent("dispute.updated", record.id)).data).toMatchObject({ documents, status: "open" });
    expect((await call(h, as, "PUT", `/disputes/${record.id}`, { user: "usr.other" })).body.data).toMatchObject({
      user: "usr.other",
      documents,
    });

    const before = await available(as, card.fundingAccount);
    const closed = await call(h, as, "PUT", `/disputes/${record.id}/close`, {});
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ id: record.id, status: "closed", provisionalCredit: 0, owed: 0 });
    expect((await disputeEvent("dispute.closed", record.id)).data).toMatchObject({ status: "closed" });
    expect(await available(as, card.fundingAccount)).toBe(before);
    expect(
      (await call(h, as, "GET", `/disputes?filter=status:closed`)).body.data.map((d: { id: string }) => d.id),
    ).toEqual([record.id]);
    await expectBalancedBooks();
  });

  it("a program's disputes settings: defaults shown, settings taken, bad ones refused with 400", async () => {
    const as = newBusiness();
    const plain = await disputableCard(as);
    const shown = await call(h, as, "GET", `/card-programs/${plain.programId}`);
    expect(shown.body.data.authorization.disputes).toEqual({ provisionalCredit: false, windowDays: 120 });
    const set = await disputableCard(as, { provisionalCredit: true, windowDays: 30 });
    expect((await call(h, as, "GET", `/card-programs/${set.programId}`)).body.data.authorization.disputes).toEqual({
      provisionalCredit: true,
      windowDays: 30,
    });
    for (const disputes of [{ windowDays: 0 }, { windowDays: 1.5 }, { provisionalCredit: "yes" }]) {
      const refused = await call(h, as, "POST", "/card-programs", {
        name: "Bad",
        network: "verve",
        type: "virtual",
        currency: "NGN",
        authorization: { disputes },
      });
      expect(refused.status, JSON.stringify(disputes)).toBe(400);
      expect(refused.body.errors[0].path).toMatch(/^authorization\.disputes\./);
    }
  });
});

describe("the outcome and the ledger", () => {
  it("provisional credit, then won: credited at once, the credit stands, the chargeback pays the disputes account back", async () => {
    const as = newBusiness();
    const card = await disputableCard(as, { provisionalCredit: true });
    const source = await approvedCapture(as, card, 10_000);
    const afterCapture = await available(as, card.fundingAccount);

    const created = await dispute(as, { reason: "fraudulent", source });
    expect(created.body.data).toMatchObject({ status: "open", amount: 10_000, provisionalCredit: 10_000 });
    expect(await available(as, card.fundingAccount)).toBe(afterCapture + 10_000);
    expect(await disputesAccountSum(as)).toBe(-10_000);

    const won = await call(h, as, "POST", `/simulation/disputes/${created.body.data.id}/win`);
    expect(won.status).toBe(200);
    expect(won.body.data).toMatchObject({ status: "won", provisionalCredit: 10_000, owed: 0 });
    expect((await disputeEvent("dispute.won", created.body.data.id)).data).toMatchObject({ status: "won" });
    expect(await available(as, card.fundingAccount)).toBe(afterCapture + 10_000);
    expect(await disputesAccountSum(as)).toBe(0);
    await expectBalancedBooks();
  });

  it("provisional credit, then lost: the credit is taken back", async () => {
    const as = newBusiness();
    const card = await disputableCard(as, { provisionalCredit: true });
    const source = await approvedCapture(as, card, 10_000);
    const afterCapture = await available(as, card.fundingAccount);
    const created = (await dispute(as, { reason: "duplicate", source, amount: 4_000 })).body.data;
    expect(await available(as, card.fundingAccount)).toBe(afterCapture + 4_000);

    const lost = await call(h, as, "POST", `/simulation/disputes/${created.id}/lose`, {});
    expect(lost.body.data).toMatchObject({ status: "lost", amount: 4_000, provisionalCredit: 4_000, owed: 0 });
    expect((await disputeEvent("dispute.lost", created.id)).data).toMatchObject({ status: "lost" });
    expect(await available(as, card.fundingAccount)).toBe(afterCapture);
    expect(await disputesAccountSum(as)).toBe(0);
    await expectBalancedBooks();
  });

  it("provisional credit spent, then lost or closed: what is available is taken back, never below zero, the rest owed", async () => {
    const as = newBusiness();
    const card = await disputableCard(as, { provisionalCredit: true }, 10_000);
    const source = await approvedCapture(as, card, 10_000);
    expect(await available(as, card.fundingAccount)).toBe(0);
    const created = (await dispute(as, { reason: "general", source })).body.data;
    await approvedCapture(as, card, 6_000); // the cardholder spends most of the credit

    const lost = await call(h, as, "POST", `/simulation/disputes/${created.id}/lose`);
    expect(lost.body.data).toMatchObject({ status: "lost", provisionalCredit: 10_000, owed: 6_000 });
    expect(await available(as, card.fundingAccount)).toBe(0);
    expect(await disputesAccountSum(as)).toBe(-6_000);

    // Closing takes back the same way; an empty account gives nothing back.
    const again = (await dispute(as, { reason: "general", source })).body.data;
    expect(again.provisionalCredit).toBe(10_000);
    await approvedCapture(as, card, 10_000);
    const closed = await call(h, as, "PUT", `/disputes/${again.id}/close`, {});
    expect(closed.body.data).toMatchObject({ status: "closed", owed: 10_000 });
    expect(await available(as, card.fundingAccount)).toBe(0);
    await expectBalancedBooks();
  });

  it("no provisional credit: won credits the amount now, lost moves nothing", async () => {
    const as = newBusiness();
    const card = await disputableCard(as);
    const source = await approvedCapture(as, card, 10_000);
    const afterCapture = await available(as, card.fundingAccount);

    const first = (await dispute(as, { reason: "fraudulent", source, amount: 3_000 })).body.data;
    expect(first.provisionalCredit).toBe(0);
    expect(await available(as, card.fundingAccount)).toBe(afterCapture);
    await call(h, as, "POST", `/simulation/disputes/${first.id}/lose`);
    expect(await available(as, card.fundingAccount)).toBe(afterCapture);

    const second = (await dispute(as, { reason: "fraudulent", source, amount: 4_000 })).body.data;
    const won = await call(h, as, "POST", `/simulation/disputes/${second.id}/win`);
    expect(won.body.data).toMatchObject({ status: "won", amount: 4_000 });
    expect(await available(as, card.fundingAccount)).toBe(afterCapture + 4_000);

    // What was won is not disputed again: the default amount is what is left.
    const third = (await dispute(as, { reason: "fraudulent", source })).body.data;
    expect(third.amount).toBe(6_000);
    expect((await call(h, as, "PUT", `/disputes/${third.id}/close`, {})).status).toBe(200);
    expect((await dispute(as, { reason: "fraudulent", source, amount: 6_001 })).status).toBe(422);
    await call(
      h,
      as,
      "POST",
      `/simulation/disputes/${(await dispute(as, { reason: "general", source })).body.data.id}/win`,
    );
    const nothingLeft = await dispute(as, { reason: "general", source });
    expect(nothingLeft.status).toBe(422);
    expect(nothingLeft.body.message).toMatch(/already won/);
    await expectBalancedBooks();
  });
});

describe("Idempotency-Key on dispute writes", () => {
  it("a repeated POST /disputes answers the first dispute again and credits once; a repeated close too", async () => {
    const as = newBusiness();
    const card = await disputableCard(as, { provisionalCredit: true });
    const source = await approvedCapture(as, card, 10_000);
    const afterCapture = await available(as, card.fundingAccount);
    const key = { "idempotency-key": `dispute-${source}` };
    const first = await call(h, as, "POST", "/disputes", { reason: "fraudulent", source }, key);
    const again = await call(h, as, "POST", "/disputes", { reason: "fraudulent", source }, key);
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers?.get("idempotent-replayed")).toBe("true");
    expect(await available(as, card.fundingAccount)).toBe(afterCapture + 10_000);

    const closeKey = { "idempotency-key": `close-${source}` };
    const closed = await call(h, as, "PUT", `/disputes/${first.body.data.id}/close`, {}, closeKey);
    const closedAgain = await call(h, as, "PUT", `/disputes/${first.body.data.id}/close`, {}, closeKey);
    expect(closedAgain).toMatchObject({ status: 200, body: closed.body });
    expect(await available(as, card.fundingAccount)).toBe(afterCapture);
    await expectBalancedBooks();
  });
});

describe("guard rails", () => {
  it("one open dispute per transaction (409); a final dispute changes no more (422)", async () => {
    const as = newBusiness();
    const card = await disputableCard(as, { provisionalCredit: true });
    const source = await approvedCapture(as, card);
    const first = (await dispute(as, { reason: "fraudulent", source })).body.data;
    const second = await dispute(as, { reason: "duplicate", source });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ statusCode: 409, code: "conflict" });
    expect(second.body.message).toContain(first.id);

    await call(h, as, "POST", `/simulation/disputes/${first.id}/win`);
    for (const [method, path, body] of [
      ["PUT", `/disputes/${first.id}`, { text: "late evidence" }],
      ["PUT", `/disputes/${first.id}/close`, {}],
      ["POST", `/simulation/disputes/${first.id}/win`, undefined],
      ["POST", `/simulation/disputes/${first.id}/lose`, undefined],
    ] as const) {
      const refused = await call(h, as, method, path, body);
      expect(refused.status, path).toBe(422);
      expect(refused.body).toMatchObject({ code: "invalid-state", message: expect.stringContaining("won") });
    }
    expect((await call(h, as, "GET", `/disputes/${first.id}`)).body.data).toMatchObject({ status: "won" });
    await expectBalancedBooks();
  });

  it("an amount larger than captured, a declined, a reversed or an unknown authorization, another business's", async () => {
    const as = newBusiness();
    const card = await disputableCard(as, undefined, 20_000);
    const source = await approvedCapture(as, card, 10_000);

    const tooMuch = await dispute(as, { reason: "general", source, amount: 10_001 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({ code: "invalid-state", message: expect.stringContaining("10000") });

    const declined = await call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, {
      amount: 50_000,
      channel: "pos",
    });
    expect(declined.body.data.status).toBe("declined");
    expect((await dispute(as, { reason: "general", source: declined.body.data.id })).status).toBe(422);

    const reversed = await call(
      h,
      as,
      "POST",
      `/simulation/cards/${card.cardId}/request-authorization/reverse-capture`,
      {
        authorization: source,
        channel: "pos",
      },
    );
    expect(reversed.body.data.status).toBe("reversed");
    const afterReversal = await dispute(as, { reason: "general", source });
    expect(afterReversal.status).toBe(422);

    const unknown = await dispute(as, { reason: "general", source: UNKNOWN_AUTHORIZATION });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "not-found" });

    const other = newBusiness();
    const theirs = await disputableCard(other);
    const theirSource = await approvedCapture(other, theirs);
    expect((await dispute(as, { reason: "general", source: theirSource })).status).toBe(404);
    const theirDispute = (await dispute(other, { reason: "general", source: theirSource })).body.data;
    for (const [method, path, body] of [
      ["GET", `/disputes/${theirDispute.id}`, undefined],
      ["PUT", `/disputes/${theirDispute.id}`, { text: "mine now" }],
      ["PUT", `/disputes/${theirDispute.id}/close`, {}],
      ["POST", `/simulation/disputes/${theirDispute.id}/win`, undefined],
    ] as const) {
      expect((await call(h, as, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await call(h, as, "GET", "/disputes")).body.data).toEqual([]);
    expect((await call(h, other, "GET", `/disputes/${theirDispute.id}`)).body.data.status).toBe("open");
  });

  it("past the program's window (default 120 days, or the program's own)", async () => {
    const as = newBusiness();
    const card = await disputableCard(as);
    const old = await approvedCapture(as, card);
    const age = (days: number, id: string) =>
      h.pg.db.query(`UPDATE engine.authorizations SET created_at = now() - $2 * interval '1 day' WHERE id = $1`, [
        id,
        days,
      ]);
    await age(121, old);
    const late = await dispute(as, { reason: "general", source: old });
    expect(late.status).toBe(422);
    expect(late.body.message).toMatch(/120 days/);
    await age(119, old);
    expect((await dispute(as, { reason: "general", source: old })).status).toBe(201);

    const weekly = await disputableCard(as, { windowDays: 7 });
    const recent = await approvedCapture(as, weekly);
    await age(8, recent);
    const refused = await dispute(as, { reason: "general", source: recent });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/7 days/);
  });

  it("bad bodies are 400 with every bad field named; nothing is made", async () => {
    const as = newBusiness();
    const card = await disputableCard(as);
    const source = await approvedCapture(as, card);
    const cases: Array<[unknown, string[]]> = [
      [{}, ["reason", "source"]],
      [{ reason: "unauthorised", source }, ["reason"]],
      [{ reason: "general", source: "ac.11111111111111111" }, ["source"]],
      [{ reason: "general", source, documents: "https://example.com/a.pdf" }, ["documents"]],
      [
        { reason: "general", source, documents: ["not a url", "ftp://example.com/a"] },
        ["documents[0]", "documents[1]"],
      ],
      [{ reason: "general", source, user: "cus.11111111111111111" }, ["user"]],
      [{ reason: "general", source, amount: 0 }, ["amount"]],
      [{ reason: "general", source, text: "" }, ["text"]],
      [[], ["(body)"]],
    ];
    for (const [body, paths] of cases) {
      const refused = await dispute(as, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe("invalid-request");
      const named = new Set(refused.body.errors.map((e: { path: string }) => e.path));
      expect([...named].sort(), JSON.stringify(body)).toEqual(paths.sort());
    }
    expect((await call(h, as, "GET", "/disputes")).body.data).toEqual([]);

    const open = (await dispute(as, { reason: "general", source })).body.data;
    for (const body of [{}, { documents: [1] }, { user: "nobody" }, { text: 5 }]) {
      expect((await call(h, as, "PUT", `/disputes/${open.id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await call(h, as, "GET", "/disputes/dsp.11111111111111111")).status).toBe(404);
    expect((await call(h, as, "GET", "/disputes?filter=colour:red")).status).toBe(400);
  });

  it("simulation takes test keys only: a live key gets 403", async () => {
    const live = newBusiness("live");
    for (const outcome of ["win", "lose"]) {
      const refused = await call(h, live, "POST", `/simulation/disputes/dsp.11111111111111111/${outcome}`);
      expect(refused.status).toBe(403);
    }
  });
});
