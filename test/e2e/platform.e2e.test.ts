import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWalletReceiver, type WalletReceiver } from "../../examples/wallet-receiver/src/wallet-receiver";
import {
  createScratchDatabase,
  DATABASE_URL,
  HAS_INFRASTRUCTURE,
  KAFKA_BROKERS,
} from "../integration/support/infrastructure";
import { startPlatform, type Platform } from "../integration/support/service-processes";
import { apiClient, createBusiness } from "../support/api-client";
import { eventually } from "../support/eventually";
import { FakeReceiver } from "../support/fake-receiver";
import { ledgerProblems } from "../support/ledger-invariants";

const SIGNING_KEY = "e2e-wallet-signing-key-0123456789abcdef";
const WALLET_START = 60_000;

/**
 * The platform as a customer meets it: the six services as separate processes on real Kafka and PostgreSQL, the
 * reference wallet receiver (examples/wallet-receiver, on its own database) as the business's webhook. One business
 * goes through every flow; at the end the wallet's balances and the platform's ledger agree.
 */
describe.skipIf(!HAS_INFRASTRUCTURE)("every flow end to end, with the wallet receiver as the webhook", () => {
  let platformDb: Awaited<ReturnType<typeof createScratchDatabase>>;
  let walletDb: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: Platform;
  let wallets: WalletReceiver;
  let db: pg.Client;
  let key = "";
  const payments = new FakeReceiver();
  const api = apiClient(
    () => platform.gatewayUrl,
    () => key,
  );
  const walletApi = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(wallets.url + path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as any;
  };
  const simulate = (kind: string, body: Record<string, unknown>) =>
    api("POST", `/simulation/cards/${ids.card}/request-authorization/${kind}`, body);
  const ids = {
    customer: "",
    program: "",
    account: "",
    settlement: "",
    card: "",
    wallet: "",
    approved: "",
    other: "",
    reversed: "",
  };

  beforeAll(async () => {
    platformDb = await createScratchDatabase(DATABASE_URL!);
    walletDb = await createScratchDatabase(DATABASE_URL!);
    wallets = await startWalletReceiver({ signingKey: SIGNING_KEY, port: 0, databaseUrl: walletDb.url });
    await payments.start();
    platform = await startPlatform(platformDb.url, KAFKA_BROKERS!);
    db = new pg.Client({ connectionString: platformDb.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await platform?.stop();
    await wallets?.stop();
    await payments.stop();
    await platformDb?.drop();
    await walletDb?.drop();
  });

  it("business → customer → program → account → card → activate → fund", async () => {
    key = (
      await createBusiness(platform.gatewayUrl, platform.operatorToken, {
        name: "Wallets Inc",
        webhookUrl: wallets.webhookUrl,
        signingKey: SIGNING_KEY,
      })
    ).testKey;
    const customer = await api("POST", "/customers", {
      name: "Ciroma C Adekunle",
      reference: "user-2345",
      type: "individual",
      verifications: ["tier-2"],
      metadata: { userId: 2345 },
      claims: {
        individualInformation: {
          firstName: "Ciroma",
          lastName: "Adekunle",
          email: "ciroma@example.com",
          phoneNumber: "+2349154109234",
          dateOfBirth: "1997-02-13",
        },
      },
    });
    ids.customer = customer.body.data.id;
    const program = await api("POST", "/card-programs", {
      name: "Wallet cards",
      network: "verve",
      type: "virtual",
      currency: "NGN",
      authorization: { fundingSourceType: "card-account" },
    });
    ids.program = program.body.data.id;
    ids.settlement = program.body.data.authorization.settlementAccount;
    const account = await api("POST", "/accounts", {
      name: "Ciroma's deposits",
      currency: "NGN",
      type: "virtual",
      customer: ids.customer,
      depositChannels: ["bank-account"],
    });
    expect(account.status).toBe(201);
    ids.account = account.body.data.id;
    const paidIn = await api("POST", "/simulation/payments/pay-in", {
      accountNumber: account.body.data.depositChannels[0].accountNumber,
      amount: 500_000,
      reference: "e2e-pay-in",
    });
    expect(paidIn.body.data).toMatchObject({ id: ids.settlement, balance: { available: 500_000 } });
    const card = await api("POST", "/cards", {
      program: ids.program,
      customer: ids.customer,
      reference: "wallet-card-1",
      controls: { blockedCategories: ["gambling"] },
    });
    ids.card = card.body.data.id;
    const { cvv } = (await api("GET", `/cards/${ids.card}/secrets`)).body.data;
    expect((await api("POST", `/cards/${ids.card}/activate`, { cvv, pin: "2580" })).body.data.status).toBe("active");
    expect(
      (await api("POST", `/cards/${ids.card}/fund`, { amount: 100_000, debitSource: ids.settlement })).body.data,
    ).toMatchObject({ available: 100_000 });
    const wallet = await walletApi("POST", "/wallets", {
      holderName: "Ciroma Adekunle",
      available: WALLET_START,
      cards: [ids.card],
    });
    ids.wallet = wallet.id;
    // Bill payment and dispute events go to their own webhook (Rule 8); the default one, the wallet receiver, keeps
    // card events.
    const hook = await api("POST", "/webhooks", {
      name: "payments",
      events: [
        "payment.bill.completed",
        "payment.bill.failed",
        "payment.payout.completed",
        "payment.payout.failed",
        "dispute.created",
        "dispute.won",
        "dispute.lost",
      ],
      url: payments.url,
      signingKey: "payments-signing-key-0123456789",
    });
    await api("POST", `/webhooks/${hook.body.data.id}/enable`, {});
    await eventually(async () => {
      const { rows } = await db.query(
        "SELECT count(*)::int AS n FROM dispatcher.webhooks WHERE business_id = (SELECT business_id FROM engine.cards WHERE id = $1) AND mode = 'test' AND status = 'enabled'",
        [ids.card],
      );
      expect(rows[0].n).toBe(2);
    }, 30_000);
  });

  it("check → approved with the wallet's balance and holder name", async () => {
    const check = await simulate("check", { channel: "atm" });
    expect(check.body.data).toMatchObject({
      type: "check",
      status: "approved",
      cardBalance: WALLET_START,
      cardHolderName: "Ciroma Adekunle",
      decisionType: "direct-response",
    });
  });

  it("capture approved: the wallet locks, then debits on card.authorization.closed", async () => {
    const capture = await simulate("capture", {
      amount: 20_000,
      fees: 500,
      channel: "online",
      mcc: "5411",
      merchantDescriptor: "SHOPRITE LEKKI",
    });
    expect(capture.body.data).toMatchObject({ status: "approved", amount: 20_000, fees: 500 });
    ids.approved = capture.body.data.id;
    await eventually(
      async () =>
        expect(await walletApi("GET", `/wallets/${ids.wallet}`)).toMatchObject({
          available: 39_500,
          locked: 0,
          debited: 20_500,
        }),
      20_000,
    );
  });

  it("capture declined by the receiver (the wallet cannot cover it, the card account could)", async () => {
    const capture = await simulate("capture", { amount: 45_000, channel: "online" });
    expect(capture.body.data).toMatchObject({
      status: "declined",
      decisionType: "direct-response",
      declineReason: "insufficient-funds",
    });
    expect((await api("GET", `/cards/${ids.card}/funding-source/balance`)).body.data).toMatchObject({
      available: 79_500,
      held: 0,
    });
  });

  it("declined by the platform for insufficient funds, and by a spending control", async () => {
    const broke = await simulate("capture", { amount: 90_000, channel: "online" });
    expect(broke.body.data).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      declineReason: "insufficient-funds",
    });
    const casino = await simulate("capture", { amount: 1_000, channel: "online", mcc: "7995" });
    expect(casino.body.data).toMatchObject({
      status: "declined",
      declineReason: "spending-control",
      statusReason: "category-not-allowed",
    });
  });

  it("amount update approved; a second one declined for insufficient funds keeps the capture as it was", async () => {
    const up = await simulate("update-capture", {
      authorization: ids.approved,
      updateAmount: 25_000,
      updateFees: 500,
      channel: "online",
    });
    expect(up.body.data).toMatchObject({ status: "approved", amount: 25_000 });
    await eventually(
      async () =>
        expect(await walletApi("GET", `/wallets/${ids.wallet}`)).toMatchObject({ available: 34_500, debited: 25_500 }),
      20_000,
    );
    const other = await simulate("capture", { amount: 5_000, channel: "pos" });
    expect(other.body.data.status).toBe("approved");
    ids.other = other.body.data.id;
    const down = await simulate("update-capture", {
      authorization: other.body.data.id,
      updateAmount: 40_000,
      channel: "pos",
    });
    expect(down.body.data).toMatchObject({ status: "declined", declineReason: "insufficient-funds", amount: 5_000 });
  });

  it("reversal: the platform credits the settlement account, the wallet gets the money back", async () => {
    const before = (await api("GET", `/accounts/${ids.settlement}/balance`)).body.data.available;
    const reversed = await simulate("reverse-capture", { amount: 3_000, fees: 0, channel: "online" });
    expect(reversed.body.data.status).toBe("reversed");
    ids.reversed = reversed.body.data.id;
    expect((await api("GET", `/accounts/${ids.settlement}/balance`)).body.data.available).toBe(before + 3_000);
    await eventually(
      async () =>
        expect(await walletApi("GET", `/liens?authorization=${ids.reversed}`)).toMatchObject({
          data: [{ locked: 0, debited: 0 }],
        }),
      20_000,
    );
  });

  it("transaction events: the wallet received every card transaction the platform recorded", async () => {
    const platformTransactions = (await api("GET", `/card-transactions?filter=card:${ids.card}&limit=100`)).body.data;
    expect(platformTransactions.map((t: { type: string }) => t.type).sort()).toEqual([
      "adjustment",
      "capture",
      "capture",
      "capture",
      "reversal",
    ]);
    await eventually(async () => {
      const received = (await walletApi("GET", `/transactions?card=${ids.card}`)).data;
      expect(received.map((t: { id: string }) => t.id).sort()).toEqual(
        platformTransactions.map((t: { id: string }) => t.id).sort(),
      );
    }, 30_000);
  });

  it("a dispute won credits the card's account; one lost moves nothing; their events reach the payments webhook", async () => {
    const cardAvailable = async () =>
      (await api("GET", `/cards/${ids.card}/funding-source/balance`)).body.data.available as number;
    const before = await cardAvailable();
    const opened = await api("POST", "/disputes", {
      reason: "fraudulent",
      source: ids.approved,
      amount: 10_000,
      text: "I did not make this purchase",
      documents: ["https://example.com/evidence/statement.pdf"],
    });
    expect(opened.status).toBe(201);
    expect(opened.body.data).toMatchObject({ object: "dispute", status: "open", source: ids.approved });
    const won = await api("POST", `/simulation/disputes/${opened.body.data.id}/win`, {});
    expect(won.body.data).toMatchObject({ status: "won" });
    expect(await cardAvailable()).toBe(before + 10_000);

    const lostOne = await api("POST", "/disputes", { reason: "duplicate", source: ids.other });
    expect(lostOne.status).toBe(201);
    expect((await api("POST", `/simulation/disputes/${lostOne.body.data.id}/lose`, {})).body.data.status).toBe("lost");
    expect(await cardAvailable()).toBe(before + 10_000);
    await eventually(() => {
      const kinds = payments.received.filter((r) => r.json?.data?.object === "dispute").map((r) => r.json.event);
      expect(kinds.sort()).toEqual(["dispute.created", "dispute.created", "dispute.lost", "dispute.won"]);
    }, 30_000);
  });

  it("a bill payment from the settlement account, its event at the payments webhook", async () => {
    const paid = await api("POST", "/payments/bill", {
      product: "bp.11pALsZ5g3CTGabps",
      inputs: { phoneNumber: "08031234567", amount: 50_000 },
      reference: "e2e-airtime",
      customer: ids.customer,
    });
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({ status: "successful", account: ids.settlement, amount: 50_000 });
    await eventually(
      () => expect(payments.received.map((r) => r.json?.event)).toContain("payment.bill.completed"),
      30_000,
    );
    expect((await api("GET", `/payments?filter=reference:e2e-airtime`)).body.data).toHaveLength(1);
  });

  it("a payout settled and one refunded: the settlement account pays once, and gets the failed one back", async () => {
    const settlementAvailable = async () =>
      (await api("GET", `/accounts/${ids.settlement}/balance`)).body.data.available as number;
    const payout = (accountNumber: string, reference: string) =>
      api("POST", "/payments/payouts", {
        method: "bank-transfer",
        options: { accountNumber, bankCode: "058", narration: "Refund for order 7" },
        currency: "NGN",
        amount: 15_000,
        reference,
        debitSource: ids.settlement,
      });
    const before = await settlementAvailable();
    const settled = await payout("0123456785", "e2e-payout-settled");
    expect(settled.status).toBe(201);
    expect(settled.body.data).toMatchObject({
      type: "pay-out",
      status: "successful",
      methodData: { bankTransfer: { accountName: "Fatima Bello", bankCode: "000013" } },
    });
    const refunded = await payout("0123455551", "e2e-payout-refunded");
    expect(refunded.body.data).toMatchObject({ type: "pay-out", status: "failed", failureReason: "bank-declined" });
    expect(await settlementAvailable()).toBe(before - 15_000 - settled.body.data.fees);
    const listed = (await api("GET", "/payments/payouts?filter=reference~^e2e-payout")).body.data;
    expect(listed.map((p: { status: string }) => p.status).sort()).toEqual(["failed", "successful"]);
    await eventually(() => {
      const kinds = payments.received.map((r) => r.json?.event).filter((k) => k?.startsWith("payment.payout"));
      expect(kinds.sort()).toEqual(["payment.payout.completed", "payment.payout.failed"]);
    }, 30_000);
  });

  it("the wallet's balances and the platform's ledger agree", async () => {
    const platformTransactions = (await api("GET", `/card-transactions?filter=card:${ids.card}&limit=100`)).body
      .data as Array<{ amount: number; fees: number }>;
    const netSpent = -platformTransactions.reduce((sum, t) => sum + t.amount + t.fees, 0);
    const wallet = await eventually(async () => {
      const w = await walletApi("GET", `/wallets/${ids.wallet}`);
      expect(w.locked).toBe(0);
      return w;
    });
    expect(wallet.debited).toBe(netSpent);
    expect(wallet.available).toBe(WALLET_START - netSpent);
    const cardAccount = (await api("GET", `/cards/${ids.card}/funding-source/balance`)).body.data;
    const captured = (await api("GET", `/accounts/${cardAccount.account}/logs?limit=100`)).body.data as Array<{
      amount: number;
    }>;
    expect(cardAccount).toMatchObject({ held: 0, ledger: captured.reduce((sum, e) => sum + e.amount, 0) });
    expect(await ledgerProblems((text) => db.query(text))).toEqual([]);
  });
});
