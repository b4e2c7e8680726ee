import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  closed,
  deliver,
  envelope,
  fixture,
  request,
  sign,
  SIGNING_KEY,
  uniqueId,
  update,
} from "./test-support/deliveries.js";
import { startWalletReceiver, type WalletReceiver } from "./wallet-receiver.js";

// The compatibility notes' reference receiver, step by step, on an in-memory PGlite.
let receiver: WalletReceiver;
let api: ReturnType<typeof admin>;
const post = (body: string, signature?: string) => deliver(receiver.webhookUrl, body, signature);

beforeAll(async () => {
  receiver = await startWalletReceiver({ signingKey: SIGNING_KEY, port: 0 });
  api = admin(receiver.url);
});
afterAll(() => receiver?.stop());

/** The wallet of the card the shared fixtures use (made once: a card belongs to one wallet). */
let fixtureWallet: Promise<{ id: string }> | undefined;
const walletOfFixtureCard = () =>
  (fixtureWallet ??= api.createWallet({ available: 100_000, cards: ["c.2tUYkKGqPTWH3ZtM4"] }));

/** A wallet with one fresh card. */
async function walletWithCard(available: number, extra: { active?: boolean; captureLimit?: number } = {}) {
  const card = uniqueId("c.");
  const wallet = await api.createWallet({ available, cards: [card], ...extra });
  return { card, id: wallet.id };
}

describe("step 1: signature and shape", () => {
  it("answers 400 Invalid Signature on a wrong, missing or malformed signature", async () => {
    const body = fixture("event-card.authorization.closed.json");
    for (const signature of [sign(body, "another-key"), "", "not-hex", sign(body + " ")]) {
      expect(await post(body, signature)).toEqual({ status: 400, body: { error: "Invalid Signature" } });
    }
  });

  it("answers 400 Invalid Request on a body that is not an event", async () => {
    for (const body of [
      "not json",
      "[]",
      JSON.stringify({ hello: "world" }),
      envelope("card.authorization.request", { id: "c.auth.x" }),
    ]) {
      expect(await post(body)).toEqual({ status: 400, body: { error: "Invalid Request" } });
    }
  });
});

describe("step 2: check", () => {
  it("declines an unknown card and an inactive wallet, else approves with the available balance and holder name", async () => {
    expect((await post(request({ card: "c.unknown", type: "check" }))).body).toEqual({
      action: "decline",
      code: "account-not-found",
    });
    const inactive = await walletWithCard(5_000, { active: false });
    expect((await post(request({ card: inactive.card, type: "check" }))).body).toEqual({
      action: "decline",
      code: "account-inactive",
    });
    const { card } = await walletWithCard(123_456);
    expect(await post(request({ card, type: "check" }))).toEqual({
      status: 200,
      body: { action: "approve", cardBalance: 123_456, cardHolderName: "Ada Obi" },
    });
  });
});

describe("step 3: capture", () => {
  it("declines unknown, inactive, repeated, unaffordable and over-limit captures, in that order", async () => {
    expect((await post(request({ card: "c.unknown", amount: 1 }))).body).toEqual({
      action: "decline",
      code: "account-not-found",
    });
    const inactive = await walletWithCard(5_000, { active: false });
    expect((await post(request({ card: inactive.card, amount: 1 }))).body).toEqual({
      action: "decline",
      code: "account-inactive",
    });
    const { card, id } = await walletWithCard(10_000, { captureLimit: 6_000 });
    expect((await post(request({ card, amount: 9_000, fees: 1_001 }))).body).toEqual({
      action: "decline",
      code: "insufficient-funds",
    });
    expect((await post(request({ card, amount: 6_000, fees: 1 }))).body).toEqual({
      action: "decline",
      code: "spending-control",
    });
    const authorizationId = uniqueId("c.auth.");
    expect((await post(request({ id: authorizationId, card, amount: 5_000, fees: 1_000 }))).body).toEqual({
      action: "approve",
    });
    expect((await post(request({ id: authorizationId, card, amount: 5_000, fees: 1_000 }))).body).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
    expect(await api.wallet(id)).toMatchObject({ available: 4_000, locked: 6_000, debited: 0 });
    expect(await api.liens(authorizationId)).toMatchObject([
      { authorization: authorizationId, wallet: id, card, locked: 6_000, debited: 0 },
    ]);
  });

  it("adds the wallet app's own fee to the lien", async () => {
    const withFee = await startWalletReceiver({ signingKey: SIGNING_KEY, port: 0, ownFee: 250 });
    try {
      const feeApi = admin(withFee.url);
      const card = uniqueId("c.");
      const wallet = await feeApi.createWallet({ available: 1_250, cards: [card] });
      expect((await deliver(withFee.webhookUrl, request({ card, amount: 1_001 }))).body).toEqual({
        action: "decline",
        code: "insufficient-funds",
      });
      expect((await deliver(withFee.webhookUrl, request({ card, amount: 1_000 }))).body).toEqual({ action: "approve" });
      expect(await feeApi.wallet(wallet.id)).toMatchObject({ available: 0, locked: 1_250 });
    } finally {
      await withFee.stop();
    }
  });
});

describe("step 4: closed", () => {
  it("approved turns the lien into a debit once (the shared fixture); a second time is a duplicate", async () => {
    const event = JSON.parse(fixture("event-card.authorization.closed.json"));
    const wallet = await walletOfFixtureCard();
    const capture = request({
      id: event.data.id,
      card: event.data.card,
      amount: event.data.amount,
      fees: event.data.fees,
    });
    expect((await post(capture)).body).toEqual({ action: "approve" });
    expect(await api.wallet(wallet.id)).toMatchObject({ available: 43_500, locked: 56_500, debited: 0 });
    expect(await post(fixture("event-card.authorization.closed.json"))).toEqual({
      status: 200,
      body: { action: "approve" },
    });
    expect(await api.wallet(wallet.id)).toMatchObject({ available: 43_500, locked: 0, debited: 56_500 });
    const again = closed({ id: event.data.id, card: event.data.card, status: "approved", amount: 50_000, fees: 6_500 });
    expect((await post(again)).body).toEqual({ action: "decline", code: "duplicate-transaction" });
    expect(await api.wallet(wallet.id)).toMatchObject({ available: 43_500, locked: 0, debited: 56_500 });
  });

  it("declined releases the lien; an unknown authorization is an invalid transaction", async () => {
    const { card, id } = await walletWithCard(10_000);
    const authorizationId = uniqueId("c.auth.");
    await post(request({ id: authorizationId, card, amount: 3_000 }));
    expect((await post(closed({ id: authorizationId, card, status: "declined", amount: 3_000 }))).body).toEqual({
      action: "approve",
    });
    expect(await api.wallet(id)).toMatchObject({ available: 10_000, locked: 0, debited: 0 });
    expect((await post(closed({ card, status: "approved", amount: 3_000 }))).body).toEqual({
      action: "decline",
      code: "invalid-transaction",
    });
  });
});

describe("step 5: update", () => {
  async function approvedCapture(available: number, amount: number) {
    const { card, id } = await walletWithCard(available);
    const authorizationId = uniqueId("c.auth.");
    await post(request({ id: authorizationId, card, amount }));
    await post(closed({ id: authorizationId, card, status: "approved", amount }));
    return { card, id, authorizationId };
  }

  it("pending: debits the new amount + fees when the lien and the balance cover it", async () => {
    const { card, id, authorizationId } = await approvedCapture(10_000, 4_000);
    expect(
      (await post(update({ id: authorizationId, card, status: "pending", amount: 7_000, fees: 500 }))).body,
    ).toEqual({ action: "approve" });
    expect(await api.wallet(id)).toMatchObject({ available: 2_500, locked: 0, debited: 7_500 });
    expect((await post(update({ id: authorizationId, card, status: "pending", amount: 1_000 }))).body).toEqual({
      action: "approve",
    });
    expect(await api.wallet(id)).toMatchObject({ available: 9_000, debited: 1_000 });
  });

  it("pending: declines insufficient-funds when they cannot, releasing what is locked and keeping the earlier debit", async () => {
    const { card, id, authorizationId } = await approvedCapture(10_000, 4_000);
    expect((await post(update({ id: authorizationId, card, status: "pending", amount: 10_001 }))).body).toEqual({
      action: "decline",
      code: "insufficient-funds",
    });
    expect(await api.wallet(id)).toMatchObject({ available: 6_000, locked: 0, debited: 4_000 });
    expect(await api.liens(authorizationId)).toMatchObject([{ locked: 0, debited: 4_000 }]);
  });

  it("pending that arrives after the platform closed it without this answer (a stalled receiver): changes nothing", async () => {
    const { card, id, authorizationId } = await approvedCapture(10_000, 4_000);
    const asked = new Date(Date.now() + 1_000);
    const timedOut = new Date(asked.getTime() + 4_000);
    const stale = update({ id: authorizationId, card, status: "pending", amount: 7_000 }, undefined, asked);
    const decidedByDefault = closed(
      { id: authorizationId, card, status: "declined", amount: 4_000 },
      undefined,
      timedOut,
    );
    expect((await post(decidedByDefault)).body).toEqual({ action: "approve" });
    expect((await post(stale)).body).toEqual({ action: "decline", code: "duplicate-transaction" });
    expect(await api.wallet(id)).toMatchObject({ available: 6_000, locked: 0, debited: 4_000 });

    const later = new Date(timedOut.getTime() + 1_000);
    const next = update({ id: authorizationId, card, status: "pending", amount: 5_000 }, undefined, later);
    expect((await post(next)).body).toEqual({ action: "approve" });
    expect(await api.wallet(id)).toMatchObject({ available: 5_000, debited: 5_000 });
  });

  it("reversed (the shared fixture): gives the funds back to the user", async () => {
    const event = JSON.parse(fixture("event-card.authorization.update.json"));
    const walletId = (await walletOfFixtureCard()).id;
    const capture = request({ id: event.data.id, card: event.data.card, amount: event.data.amount });
    expect((await post(capture)).body).toEqual({ action: "approve" });
    expect(
      (await post(closed({ id: event.data.id, card: event.data.card, status: "approved", amount: event.data.amount })))
        .body,
    ).toEqual({ action: "approve" });
    const before = await api.wallet(walletId);
    expect(await post(fixture("event-card.authorization.update.json"))).toEqual({
      status: 200,
      body: { action: "approve" },
    });
    expect(await api.wallet(walletId)).toMatchObject({
      available: before.available + 500,
      debited: before.debited - 500,
    });
  });
});

describe("step 6: transactions and other events", () => {
  it("answers card.transaction.created with success and keeps it; any other event kind is a 400", async () => {
    const body = fixture("event-card.transaction.created.json");
    expect(await post(body)).toEqual({ status: 200, body: { code: "success" } });
    const listed = await api.call("GET", "/transactions?authorization=c.auth.2tXJVgE6Z4vX97RRj");
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: "c.txn.2tXJVhhjbU3pPekQb", amount: -50_000, fees: -6_500 }),
    ]);
    const unknown = envelope("card.authorization.created", JSON.parse(body).data);
    expect(await post(unknown)).toEqual({ status: 400, body: { error: "Invalid Request" } });
  });
});
