import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import {
  connectIso8583,
  nextTrace,
  originalData,
  replacementAmounts,
  transactionMessage,
  type Iso8583Client,
  type IsoMessage,
  type TransactionFields,
} from "../../../test/support/iso8583-client";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import { pruneNetworkMessages } from "../src/network-interface/message-retention";
import {
  answerDecision,
  balanceOf,
  call,
  eventsOf,
  issueCard,
  newBusiness,
  startEngine,
  type Business,
  type CardSetup,
  type EngineHarness,
  type Envelope,
  type IssuedCard,
} from "./harness";

let h: EngineHarness;
let network: Iso8583Client;

/** What the receiver answers a decision event: a body, or nothing at all ("silent"). */
type Policy = (event: Envelope) => unknown;
const approve: Policy = (e) =>
  (e.data as { type: string }).type === "check"
    ? { action: "approve", cardBalance: 12_345, cardHolderName: "Ada Obi" }
    : { action: "approve" };
let policy: Policy = approve;
let stopReceiver = () => {};

/** Plays the receiver: answers every decision event (status pending) with `policy`, as the dispatcher would. */
function startReceiver(business: () => Business) {
  let next = 0;
  const timer = setInterval(() => {
    while (next < h.events.length) {
      const event = h.events[next++]!;
      if ((event.data as { status?: string }).status !== "pending") continue;
      const body = policy(event);
      if (body !== "silent") void answerDecision(h, business(), event, { body });
    }
  }, 5);
  return () => clearInterval(timer);
}

let as: Business;
beforeAll(async () => {
  h = await startEngine({ networkInterface: { port: 0 } });
  network = await connectIso8583(h.iso8583Port()!);
  stopReceiver = startReceiver(() => as);
});
afterAll(async () => {
  stopReceiver();
  await network?.close();
  await h?.stop();
});
beforeEach(() => {
  policy = approve;
  as = newBusiness();
});

interface NetworkCard extends IssuedCard {
  pan: string;
  /** Field 14: YYMM. */
  expiry: string;
  cvv: string;
}

async function networkCard(setup: CardSetup = {}): Promise<NetworkCard> {
  const card = await issueCard(h, as, setup);
  const secrets = (await call(h, as, "GET", `/cards/${card.cardId}/secrets`)).body.data;
  const [month, year] = (secrets.expiry as string).split("/");
  return { ...card, pan: secrets.pan, expiry: `${year}${month}`, cvv: secrets.cvv };
}

const send = (mti: string, t: TransactionFields) => network.request(transactionMessage(mti, t));
const authorizationsOf = async (card: IssuedCard) =>
  (await call(h, as, "GET", `/card-authorizations?filter=card:${card.cardId}`)).body.data as Array<
    Record<string, unknown>
  >;
const books = async () => expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);

describe("network management (0800)", () => {
  it.each([
    ["001", "sign-on"],
    ["301", "echo"],
    ["002", "sign-off"],
  ])("%s (%s) is answered 0810 00, echoing 7, 11 and 70", async (code) => {
    const { stan } = nextTrace();
    const answer = await network.request({ mti: "0800", fields: { 7: "1125103000", 11: stan, 70: code } });
    expect(answer).toEqual({ mti: "0810", fields: { 7: "1125103000", 11: stan, 39: "00", 70: code } });
  });

  it("an unknown network management code is 12, a missing one 30", async () => {
    const unknown = await network.request({ mti: "0800", fields: { 11: "100001", 70: "999" } });
    expect(unknown.fields[39]).toBe("12");
    const missing = await network.request({ mti: "0800", fields: { 11: "100002" } });
    expect(missing.fields[39]).toBe("30");
  });
});

describe("authorizations (0100) and financial requests (0200)", () => {
  it("0100 for 0 is a check: 00 with an approval code and the balance in field 54", async () => {
    const card = await networkCard();
    const answer = await send("0100", { pan: card.pan, amount: 0, expiry: card.expiry, cvv2: card.cvv });
    expect(answer.mti).toBe("0110");
    expect(answer.fields).toMatchObject({ 39: "00", 38: expect.stringMatching(/^\d{6}$/) });
    expect(answer.fields[54]).toBe("0002566C000000012345");
    const [auth] = await authorizationsOf(card);
    expect(auth).toMatchObject({ type: "check", status: "approved", amount: 0, cardBalance: 12_345 });
  });

  it("0100 for an amount is a capture: held, asked, approved, debited — the same flow as the simulation", async () => {
    const card = await networkCard({ funds: 10_000 });
    const message = transactionMessage("0100", { pan: card.pan, amount: 2_500, posEntryMode: "812" });
    const answer = await network.request(message);
    expect(answer.mti).toBe("0110");
    expect(answer.fields).toMatchObject({
      39: "00",
      4: "000000002500",
      11: message.fields[11],
      37: message.fields[37],
    });
    const [auth] = await authorizationsOf(card);
    expect(auth).toMatchObject({ type: "capture", status: "approved", amount: 2_500, channel: "online", mcc: "5411" });
    expect(auth!.networkData).toMatchObject({
      rrn: message.fields[37],
      stan: message.fields[11],
      terminalId: "TERM0001",
      merchantId: "MERCHANT0000001",
      cardAcceptorNameLocation: "MAINLAND FRESH MART      LAGOS        NG",
    });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 7_500, held: 0 });
    const kinds = await eventually(() => {
      const seen = eventsOf(h, auth!.id as string).map((e) => e.event);
      expect(seen).toContain("card.transaction.created");
      return seen;
    });
    expect(kinds).toEqual(["card.authorization.request", "card.authorization.closed", "card.transaction.created"]);
    await books();
  });

  it("0200 is a capture too; a network fee (field 28, D) is the authorization's fees", async () => {
    const card = await networkCard({ funds: 10_000 });
    const answer = await send("0200", { pan: card.pan, amount: 1_000, extra: { 28: "D00000050" } });
    expect(answer.mti).toBe("0210");
    expect(answer.fields[39]).toBe("00");
    expect((await authorizationsOf(card))[0]).toMatchObject({ type: "capture", amount: 1_000, fees: 50 });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 8_950 });
  });

  it("a partial approval where the terminal takes one: 10, field 4 the approved amount, 54 the original", async () => {
    const card = await networkCard({ funds: 10_000 });
    policy = () => ({ action: "approve", amount: 3_000 });
    const answer = await send("0100", { pan: card.pan, amount: 5_000, partialApproval: true });
    expect(answer.fields).toMatchObject({ 39: "10", 4: "000000003000", 54: "0057566C000000005000" });
    expect((await authorizationsOf(card))[0]).toMatchObject({ amount: 3_000, requestedAmount: 5_000 });
  });

  it.each<[string, Policy, string]>([
    ["declined without a code: 05", () => ({ action: "decline" }), "05"],
    ["declined insufficient-funds: 51", () => ({ action: "decline", code: "insufficient-funds" }), "51"],
    ["declined spending-control: 57", () => ({ action: "decline", code: "spending-control" }), "57"],
    ["declined account-inactive: 62", () => ({ action: "decline", code: "account-inactive" }), "62"],
    ["declined account-not-found: 14", () => ({ action: "decline", code: "account-not-found" }), "14"],
    ["declined duplicate-transaction: 94", () => ({ action: "decline", code: "duplicate-transaction" }), "94"],
    ["an answer that is not one (timeout default decline): 05", () => ({ action: "maybe" }), "05"],
  ])("the receiver %s", async (_case, given, code) => {
    const card = await networkCard({ funds: 10_000 });
    policy = given;
    const answer = await send("0100", { pan: card.pan, amount: 700 });
    expect(answer.fields[39]).toBe(code);
    expect(answer.fields[38]).toBeUndefined();
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000, held: 0 });
  });

  it.each<[string, CardSetup, Partial<TransactionFields>, string, string]>([
    ["a balance too low: 51", { funds: 100 }, { amount: 500 }, "51", "insufficient-funds"],
    [
      "a blocked channel (e-commerce entry): 57",
      { controls: { blockedChannels: ["online"] } },
      { posEntryMode: "810" },
      "57",
      "channel-not-allowed",
    ],
    [
      "ATM (MCC 6011) not allowed: 57",
      { controls: { allowedChannels: ["pos"] } },
      { mcc: "6011" },
      "57",
      "channel-not-allowed",
    ],
    ["a blocked MCC: 57", { controls: { blockedMcc: ["5411"] } }, {}, "57", "mcc-not-allowed"],
    [
      "a spending limit: 61",
      { controls: { spendingLimits: [{ amount: 100, interval: "per-authorization" }] } },
      { amount: 500 },
      "61",
      "spending-limit-exceeded",
    ],
  ])("the engine's pre-checks decline %s", async (_case, setup, fields, code, statusReason) => {
    const card = await networkCard({ funds: 10_000, ...setup });
    const answer = await send("0100", { pan: card.pan, amount: 300, ...fields });
    expect(answer.fields[39]).toBe(code);
    expect((await authorizationsOf(card))[0]).toMatchObject({ status: "declined", statusReason });
  });

  it.each<[string, (card: NetworkCard) => Partial<TransactionFields>, string]>([
    ["an expiry that is not the card's: 54", () => ({ expiry: "2001" }), "54"],
    ["a CVV2 that is not the card's: 05", (card) => ({ cvv2: card.cvv === "000" ? "001" : "000" }), "05"],
    ["another currency than the card's: 12", () => ({ currency: "840" }), "12"],
    ["a refund (transaction type 20): 12", () => ({ processingCode: "200000" }), "12"],
  ])("the interface refuses %s, and makes no authorization", async (_case, fields, code) => {
    const card = await networkCard();
    const answer = await send("0100", { pan: card.pan, amount: 300, ...fields(card) });
    expect(answer.fields[39]).toBe(code);
    expect(await authorizationsOf(card)).toEqual([]);
  });

  it("a 0200 for 0 is 12; a balance inquiry (31) on 0200 is a check", async () => {
    const card = await networkCard();
    expect((await send("0200", { pan: card.pan, amount: 0 })).fields[39]).toBe("12");
    const inquiry = await send("0200", { pan: card.pan, amount: 0, processingCode: "310000" });
    expect(inquiry.fields).toMatchObject({ 39: "00", 54: "0002566C000000012345" });
  });

  it("an unknown PAN is 14; a blocked card is 62 (the engine drops the request)", async () => {
    expect((await send("0100", { pan: "5060990000000000000", amount: 100 })).fields[39]).toBe("14");
    const card = await networkCard();
    await call(h, as, "POST", `/cards/${card.cardId}/block`);
    expect((await send("0100", { pan: card.pan, amount: 100 })).fields[39]).toBe("62");
    expect(await authorizationsOf(card)).toEqual([]);
  });

  const panHashOf = async (cardId: string) =>
    (await h.pg.db.query<{ pan_hash: string | null }>("SELECT pan_hash FROM engine.cards WHERE id = $1", [cardId]))
      .rows[0]!.pan_hash;

  it("a printed card linked to a customer is found by its PAN: linking hashes it", async () => {
    const customer = (await issueCard(h, as)).customerId;
    const program = await call(h, as, "POST", "/card-programs", {
      name: "Physical",
      network: "verve",
      type: "physical",
      quantity: 1,
      currency: "NGN",
    });
    await call(h, as, "POST", `/simulation/card-programs/${program.body.data.id}/go-live`);
    const [printed] = (await call(h, as, "POST", `/simulation/card-programs/${program.body.data.id}/print-cards`)).body
      .data;
    expect((await call(h, as, "POST", `/cards/${printed.id}/link`, { customer })).status).toBe(200);
    expect(await panHashOf(printed.id)).toEqual(expect.any(String));
    // Linked cards are inactive until their holder activates them: the engine drops the request.
    expect((await send("0100", { pan: printed.pan, amount: 0 })).fields[39]).toBe("62");
  });

  it("finds a card whose PAN hash was never filled in (from before migration 012)", async () => {
    const card = await networkCard();
    const issuedWith = await panHashOf(card.cardId);
    expect(issuedWith).toEqual(expect.any(String));
    expect(JSON.stringify(issuedWith)).not.toContain(card.pan);
    await h.pg.db.query("UPDATE engine.cards SET pan_hash = NULL WHERE id = $1", [card.cardId]);
    expect((await send("0100", { pan: card.pan, amount: 0 })).fields[39]).toBe("00");
    expect(await panHashOf(card.cardId)).toBe(issuedWith);
  });

  it("a live card is served too: the PAN decides the business and mode", async () => {
    as = newBusiness("live");
    const card = await networkCard();
    expect((await send("0100", { pan: card.pan, amount: 0 })).fields[39]).toBe("00");
    expect((await authorizationsOf(card))[0]).toMatchObject({ type: "check", status: "approved" });
  });
});

describe("duplicates: a repeated message gets the first answer and changes nothing", () => {
  it("0100 sent again, and as a repeat (0101), is answered the same; one authorization, one debit", async () => {
    const card = await networkCard({ funds: 10_000 });
    const first = transactionMessage("0100", { pan: card.pan, amount: 1_000 });
    const answer = await network.request(first);
    const again = await network.request(first);
    const repeat = await network.request({ ...first, mti: "0101" });
    expect(again).toEqual(answer);
    expect(repeat).toEqual(answer);
    expect(await authorizationsOf(card)).toHaveLength(1);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 9_000 });
  });

  it("the same message twice at once: both answered alike, one authorization", async () => {
    const card = await networkCard({ funds: 10_000 });
    const message = transactionMessage("0100", { pan: card.pan, amount: 1_000 });
    const [a, b] = await Promise.all([network.request(message), network.request(message)]);
    expect(a.fields[39]).toBe("00");
    expect(b).toEqual(a);
    expect(await authorizationsOf(card)).toHaveLength(1);
  });

  it("a refusal before any authorization is kept too: the repeat gets 54 again", async () => {
    const card = await networkCard();
    const message = transactionMessage("0100", { pan: card.pan, amount: 100, expiry: "2001" });
    expect((await network.request(message)).fields[39]).toBe("54");
    expect((await network.request({ ...message, mti: "0101" })).fields[39]).toBe("54");
    const { rows } = await h.pg.db.query<{ request: { pan: string }; response: unknown }>(
      "SELECT request, response FROM engine.network_messages WHERE card_id = $1",
      [card.cardId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.response).toEqual({ code: "54" });
    expect(JSON.stringify(rows)).not.toContain(card.pan);
    expect(rows[0]!.request.pan).toBe(
      `${card.pan.slice(0, 6)}${"*".repeat(card.pan.length - 10)}${card.pan.slice(-4)}`,
    );
  });
});

describe("retention: answers kept for repeats are deleted once older than ISO8583_RETENTION_HOURS", () => {
  it("deletes only what is past the retention; a repeat after that still charges once", async () => {
    const card = await networkCard({ funds: 10_000 });
    const old = transactionMessage("0100", { pan: card.pan, amount: 1_000 });
    expect((await network.request(old)).fields[39]).toBe("00");
    await h.pg.db.query(
      "UPDATE engine.network_messages SET received_at = received_at - interval '8 days' WHERE card_id = $1",
      [card.cardId],
    );
    const fresh = transactionMessage("0100", { pan: card.pan, amount: 500 });
    expect((await network.request(fresh)).fields[39]).toBe("00");

    expect(await pruneNetworkMessages(h.pg.db, 7 * 24 * 3_600_000)).toBe(1);
    const kept = await h.pg.db.query<{ stan: string }>("SELECT stan FROM engine.network_messages WHERE card_id = $1", [
      card.cardId,
    ]);
    expect(kept.rows.map((r) => r.stan)).toEqual([fresh.fields[11]]);

    expect((await network.request({ ...old, mti: "0101" })).fields[39]).toBe("00");
    expect(await authorizationsOf(card)).toHaveLength(2);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 8_500 });
  });
});

describe("advices (0120)", () => {
  it("are recorded and acknowledged 0130 00; no authorization, no money moves", async () => {
    const card = await networkCard({ funds: 10_000 });
    const advice = transactionMessage("0120", { pan: card.pan, amount: 800, extra: { 39: "00" } });
    const answer = await network.request(advice);
    expect(answer.mti).toBe("0130");
    expect(answer.fields[39]).toBe("00");
    expect(await authorizationsOf(card)).toEqual([]);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000 });
    const { rows } = await h.pg.db.query("SELECT mti, request FROM engine.network_messages WHERE card_id = $1", [
      card.cardId,
    ]);
    expect(rows).toEqual([
      { mti: "0120", request: expect.objectContaining({ amount: 800, adviceResponseCode: "00" }) },
    ]);
    expect((await network.request({ ...advice, mti: "0121" })).fields[39]).toBe("00");
  });
});

describe("reversals (0400, 0420)", () => {
  async function approvedCapture(card: NetworkCard, amount: number) {
    const message = transactionMessage("0100", { pan: card.pan, amount });
    expect((await network.request(message)).fields[39]).toBe("00");
    const [auth] = await authorizationsOf(card);
    return { message, id: auth!.id as string };
  }
  const reversalOf = (mti: string, original: IsoMessage, card: NetworkCard, extra: Record<number, string> = {}) =>
    transactionMessage(mti, {
      pan: card.pan,
      amount: Number(original.fields[4]),
      rrn: String(original.fields[37]),
      stan: nextTrace().stan,
      extra: { 90: originalData(original.mti, String(original.fields[11])), ...extra },
    });

  it("0400 full: the reverse flow — reversed, settlement credited; its repeat (0401) changes nothing more", async () => {
    const card = await networkCard({ funds: 10_000 });
    const { message, id } = await approvedCapture(card, 2_000);
    const settlementBefore = (await balanceOf(h, as, card.settlementAccount)).available;
    const reversal = reversalOf("0400", message, card);
    const answer = await network.request(reversal);
    expect(answer).toMatchObject({ mti: "0410", fields: { 39: "00", 90: reversal.fields[90] } });
    expect((await call(h, as, "GET", `/card-authorizations/${id}`)).body.data.status).toBe("reversed");
    expect((await balanceOf(h, as, card.settlementAccount)).available).toBe(settlementBefore + 2_000);
    expect(await network.request({ ...reversal, mti: "0401" })).toEqual(answer);
    const updates = eventsOf(h, id).filter((e) => e.event === "card.authorization.update");
    expect(updates).toHaveLength(1);
    await books();
  });

  it("0420 partial (field 95): the amount-update flow, the receiver asked; the transaction ends at the new amount", async () => {
    const card = await networkCard({ funds: 10_000 });
    const { message, id } = await approvedCapture(card, 4_000);
    const advice = reversalOf("0420", message, card, { 95: replacementAmounts(2_500) });
    expect(await network.request(advice)).toMatchObject({ mti: "0430", fields: { 39: "00" } });
    await eventually(async () =>
      expect((await call(h, as, "GET", `/card-authorizations/${id}`)).body.data).toMatchObject({
        status: "approved",
        amount: 2_500,
      }),
    );
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 7_500 });
    expect((await network.request({ ...advice, mti: "0421" })).fields[39]).toBe("00");
    expect(eventsOf(h, id).filter((e) => e.event === "card.authorization.update")).toHaveLength(1);
    await books();
  });

  it("0400 partial the receiver declines: still 00, and the lower amount stands (a reversal is not refusable)", async () => {
    const card = await networkCard({ funds: 10_000 });
    const { message, id } = await approvedCapture(card, 4_000);
    policy = () => ({ action: "decline", code: "invalid-transaction" });
    const reversal = reversalOf("0400", message, card, { 95: replacementAmounts(1_000) });
    expect(await network.request(reversal)).toMatchObject({ mti: "0410", fields: { 39: "00" } });
    await eventually(async () =>
      expect((await call(h, as, "GET", `/card-authorizations/${id}`)).body.data).toMatchObject({
        status: "approved",
        amount: 1_000,
        statusReason: "decrease-not-refusable",
      }),
    );
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 9_000, held: 0 });
    await books();
  });

  it("the same reversal twice at once: both answered 00, reversed once", async () => {
    const card = await networkCard({ funds: 10_000 });
    const { message, id } = await approvedCapture(card, 1_000);
    const reversal = reversalOf("0400", message, card);
    const answers = await Promise.all([network.request(reversal), network.request({ ...reversal, mti: "0401" })]);
    expect(answers.map((a) => a.fields[39])).toEqual(["00", "00"]);
    expect(eventsOf(h, id).filter((e) => e.event === "card.authorization.update")).toHaveLength(1);
    await books();
  });

  it("a reversal of a declined authorization is acknowledged and changes nothing", async () => {
    const card = await networkCard({ funds: 10_000 });
    policy = () => ({ action: "decline" });
    const message = transactionMessage("0100", { pan: card.pan, amount: 500 });
    expect((await network.request(message)).fields[39]).toBe("05");
    expect((await network.request(reversalOf("0400", message, card))).fields[39]).toBe("00");
    expect((await authorizationsOf(card))[0]).toMatchObject({ status: "declined" });
  });

  it("a reversal whose original is unknown is 25, and is not kept: its repeat is looked at again", async () => {
    const card = await networkCard();
    const lost = transactionMessage("0100", { pan: card.pan, amount: 500 });
    const reversal = reversalOf("0400", lost, card);
    expect((await network.request(reversal)).fields[39]).toBe("25");
    const { rows } = await h.pg.db.query("SELECT 1 FROM engine.network_messages WHERE card_id = $1", [card.cardId]);
    expect(rows).toEqual([]);
  });

  it("a reversal without field 90 is a format error (30); a partial one for more than the amount is 12", async () => {
    const card = await networkCard({ funds: 10_000 });
    const { message } = await approvedCapture(card, 1_000);
    const without = transactionMessage("0400", {
      pan: card.pan,
      amount: 1_000,
      rrn: String(message.fields[37]),
      stan: "777777",
    });
    expect((await network.request(without)).fields[39]).toBe("30");
    const more = reversalOf("0420", message, card, { 95: replacementAmounts(5_000) });
    expect((await network.request(more)).fields[39]).toBe("12");
  });
});

describe("one connection, many messages at once", () => {
  it("answers as decisions come, out of order, each matched by STAN and RRN", async () => {
    const card = await networkCard({ funds: 100_000 });
    // The receiver answers the smaller amounts later: answers leave in another order than the requests came.
    policy = (e) => {
      const amount = (e.data as { amount: number }).amount;
      setTimeout(() => void answerDecision(h, as, e, { body: { action: "approve" } }), 600 - amount);
      return "silent";
    };
    const messages = Array.from({ length: 20 }, (_, i) =>
      transactionMessage("0100", { pan: card.pan, amount: 100 + i * 20 }),
    );
    const first = network.received.length;
    const answers = await Promise.all(messages.map((m) => network.request(m)));
    for (const [i, answer] of answers.entries()) {
      expect(answer.fields).toMatchObject({ 39: "00", 11: messages[i]!.fields[11], 37: messages[i]!.fields[37] });
    }
    const order = network.received.slice(first).map((a) => Number(a.fields[4]));
    expect(order).not.toEqual([...order].sort((a, b) => a - b));
    expect(await authorizationsOf(card)).toHaveLength(20);
  });
});

describe("what cannot be read", () => {
  it("a message with a malformed field is answered 30, naming it by STAN and RRN; the connection goes on", async () => {
    const card = await networkCard();
    const message = transactionMessage("0100", { pan: card.pan, amount: 100 });
    message.fields[14] = "2013"; // month 13
    expect((await network.request(message)).fields[39]).toBe("30");
    expect((await network.request({ mti: "0800", fields: { 11: "200001", 70: "301" } })).fields[39]).toBe("00");
  });

  it("bytes that are no message: 30 when the MTI names a request, else nothing; the connection goes on", async () => {
    const before = network.unmatched.length;
    // 0100, a bitmap naming field 11, then one byte where three should be.
    network.sendRaw(Buffer.from("0100002000000000000000", "hex"));
    network.sendRaw(Buffer.from("ffff", "hex"));
    await eventually(() => expect(network.unmatched.length).toBe(before + 1));
    expect(network.unmatched.at(-1)).toEqual({ mti: "0110", fields: { 39: "30" } });
    expect((await network.request({ mti: "0800", fields: { 11: "200002", 70: "301" } })).fields[39]).toBe("00");
  });

  it("an MTI it does not serve (0300) is 12", async () => {
    const answer = await network.request({ mti: "0300", fields: { 11: "200003", 37: "ABCDEF123456" } });
    expect(answer).toEqual({ mti: "0310", fields: { 11: "200003", 37: "ABCDEF123456", 39: "12" } });
  });
});
