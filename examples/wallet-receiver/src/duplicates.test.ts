import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, closed, deliver, request, SIGNING_KEY, uniqueId, update } from "./test-support/deliveries.js";
import { startWalletReceiver, type WalletReceiver } from "./wallet-receiver.js";

// Rule 6: events are resent until answered 200, so the receiver tracks duplicates — in its database, across restarts.
let dataDir: string;
let receiver: WalletReceiver;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "wallet-receiver-"));
  receiver = await startWalletReceiver({ signingKey: SIGNING_KEY, port: 0, dataDir });
});
afterAll(async () => {
  await receiver?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("duplicate deliveries", () => {
  it("the same event id twice: the first answer again, applied once", async () => {
    const api = admin(receiver.url);
    const card = uniqueId("c.");
    const wallet = await api.createWallet({ available: 10_000, cards: [card] });
    const authorizationId = uniqueId("c.auth.");
    const capture = request({ id: authorizationId, card, amount: 4_000 });
    expect((await deliver(receiver.webhookUrl, capture)).body).toEqual({ action: "approve" });
    expect((await deliver(receiver.webhookUrl, capture)).body).toEqual({ action: "approve" });
    expect(await api.wallet(wallet.id)).toMatchObject({ available: 6_000, locked: 4_000 });

    const approved = closed({ id: authorizationId, card, status: "approved", amount: 4_000 });
    for (let i = 0; i < 3; i++)
      expect((await deliver(receiver.webhookUrl, approved)).body).toEqual({ action: "approve" });
    const reversal = update({ id: authorizationId, card, status: "reversed", amount: 4_000 });
    for (let i = 0; i < 3; i++)
      expect((await deliver(receiver.webhookUrl, reversal)).body).toEqual({ action: "approve" });
    expect(await api.wallet(wallet.id)).toMatchObject({ available: 10_000, locked: 0, debited: 0 });
  });

  it("the same authorization captured twice under different event ids: duplicate-transaction, nothing locked twice", async () => {
    const api = admin(receiver.url);
    const card = uniqueId("c.");
    const wallet = await api.createWallet({ available: 10_000, cards: [card] });
    const authorizationId = uniqueId("c.auth.");
    expect((await deliver(receiver.webhookUrl, request({ id: authorizationId, card, amount: 1_000 }))).body).toEqual({
      action: "approve",
    });
    expect((await deliver(receiver.webhookUrl, request({ id: authorizationId, card, amount: 1_000 }))).body).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
    expect(await api.wallet(wallet.id)).toMatchObject({ available: 9_000, locked: 1_000 });
  });

  it("a declined capture still claims its authorization id", async () => {
    const api = admin(receiver.url);
    const card = uniqueId("c.");
    const wallet = await api.createWallet({ available: 500, cards: [card] });
    const authorizationId = uniqueId("c.auth.");
    expect((await deliver(receiver.webhookUrl, request({ id: authorizationId, card, amount: 1_000 }))).body).toEqual({
      action: "decline",
      code: "insufficient-funds",
    });
    expect((await api.call("POST", `/wallets/${wallet.id}/deposits`, { amount: 5_000 })).body).toMatchObject({
      available: 5_500,
    });
    expect((await deliver(receiver.webhookUrl, request({ id: authorizationId, card, amount: 1_000 }))).body).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
  });

  it("remembers events and captures across a restart on the same data directory", async () => {
    const api = admin(receiver.url);
    const card = uniqueId("c.");
    const wallet = await api.createWallet({ available: 10_000, cards: [card] });
    const authorizationId = uniqueId("c.auth.");
    const capture = request({ id: authorizationId, card, amount: 2_500 });
    expect((await deliver(receiver.webhookUrl, capture)).body).toEqual({ action: "approve" });

    await receiver.stop();
    receiver = await startWalletReceiver({ signingKey: SIGNING_KEY, port: 0, dataDir });
    const restarted = admin(receiver.url);
    expect((await deliver(receiver.webhookUrl, capture)).body).toEqual({ action: "approve" });
    expect((await deliver(receiver.webhookUrl, request({ id: authorizationId, card, amount: 2_500 }))).body).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
    expect(await restarted.wallet(wallet.id)).toMatchObject({ available: 7_500, locked: 2_500 });
  });
});
