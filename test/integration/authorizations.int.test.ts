import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sign } from "../../services/event-dispatcher/src/domain/signature";
import { apiClient, createBusiness } from "../support/api-client";
import { eventually } from "../support/eventually";
import { FakeReceiver, type ReceivedRequest } from "../support/fake-receiver";
import { ledgerProblems } from "../support/ledger-invariants";
import { createScratchDatabase, DATABASE_URL, HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";
import { startPlatform, type Platform } from "./support/service-processes";
import { untilDispatcherRoutesTo } from "./support/dispatcher-routing";
import { ADA_OBI } from "../support/card-holder";

const SIGNING_KEY = "authorization-it-signing-key-0123456789";

/**
 * Every row of the interface's authorization transition table, scripted through the gateway against real Kafka and
 * PostgreSQL, with the six services as separate processes and a real HTTP receiver answering the decisions.
 */
describe.skipIf(!HAS_INFRASTRUCTURE)("card authorizations end to end against real Kafka and PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: Platform;
  let db: pg.Client;
  let key = "";
  const receiver = new FakeReceiver();
  /** What the receiver answers to each decision event, by the authorization's amount. */
  const answers = new Map<number, { status: number; body?: unknown; delayMs?: number }>();

  const api = apiClient(
    () => platform.gatewayUrl,
    () => key,
  );
  const received = (authorizationId: string) =>
    receiver.received.filter(
      (r) => r.json?.data?.id === authorizationId || r.json?.data?.authorization === authorizationId,
    );
  /** Distinct events the receiver got for an authorization (deliveries are at least once), as kind:status. */
  const deliveredKinds = (authorizationId: string) => {
    const seen = new Map<string, ReceivedRequest>();
    for (const r of received(authorizationId)) seen.set(r.json.metadata.event, r);
    return [...seen.values()].map((r) => `${r.json.event}${r.json.data.status ? `:${r.json.data.status}` : ""}`);
  };

  let card: string;
  let settlement: { id: string; number: string };

  beforeAll(async () => {
    receiver.answerWith((req) => {
      const decision =
        req.json?.event === "card.authorization.request" ||
        (req.json?.event === "card.authorization.update" && req.json.data.status === "pending");
      if (!decision) return { status: 200, body: { code: "success" } };
      return (
        answers.get(req.json.data.amount) ?? {
          status: 200,
          body: { action: "approve", cardBalance: 1, cardHolderName: "Ada Obi" },
        }
      );
    });
    await receiver.start();
    database = await createScratchDatabase(DATABASE_URL!);
    platform = await startPlatform(database.url, KAFKA_BROKERS!);
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    key = (
      await createBusiness(platform.gatewayUrl, platform.operatorToken, {
        name: "Authorizations Ltd",
        webhookUrl: receiver.url,
        signingKey: SIGNING_KEY,
      })
    ).testKey;
    const customer = await api("POST", "/customers", ADA_OBI);
    // The business's settlement accounts come from businesses.v1; the default webhook reaches the dispatcher too.
    const accounts = await eventually(async () => {
      const list = await api("GET", "/accounts?filter=currency:NGN");
      expect(list.body.data).toHaveLength(1);
      return list.body.data;
    }, 30_000);
    settlement = { id: accounts[0].id, number: accounts[0].depositChannels[0].accountNumber };
    await api("POST", "/simulation/payments/pay-in", {
      accountNumber: settlement.number,
      amount: 1_000_000,
      reference: "funding-1",
    });
    const program = await api("POST", "/card-programs", {
      name: "Virtual NGN",
      network: "verve",
      type: "virtual",
      currency: "NGN",
    });
    const issued = await api("POST", "/cards", {
      program: program.body.data.id,
      customer: customer.body.data.id,
      reference: "card-1",
      controls: { blockedMcc: "7995" },
    });
    expect(issued.status).toBe(201);
    card = issued.body.data.id;
    await untilDispatcherRoutesTo(db, receiver.url);
  });

  afterAll(async () => {
    await db?.end();
    await platform?.stop();
    await database?.drop();
    await receiver.stop();
  });

  const simulate = (kind: string, body: Record<string, unknown>) =>
    api("POST", `/simulation/cards/${card}/request-authorization/${kind}`, body);
  const available = async () => (await api("GET", `/accounts/${settlement.id}/balance`)).body.data.available as number;

  it("inactive card → dropped: 422 and no authorization", async () => {
    const reply = await simulate("capture", { amount: 1_000, channel: "online" });
    expect(reply.status).toBe(422);
    expect((await api("GET", "/card-authorizations?countTotal")).body.metadata.totalCount).toBe(0);
    const secrets = await api("GET", `/cards/${card}/secrets`);
    expect(
      (await api("POST", `/cards/${card}/activate`, { cvv: secrets.body.data.cvv, pin: "2468" })).body.data.status,
    ).toBe("active");
  });

  it("a failed pre-check → declined by the service, card.authorization.closed delivered", async () => {
    const reply = await simulate("capture", { amount: 2_000, channel: "pos", mcc: "7995" });
    expect(reply.body.data).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      declineReason: "spending-control",
      statusReason: "mcc-not-allowed",
    });
    await eventually(() => expect(deliveredKinds(reply.body.data.id)).toEqual(["card.authorization.closed:declined"]));
  });

  it("approve → approved; signed request, closed and a negative transaction reach the receiver in order", async () => {
    const before = await available();
    const reply = await simulate("capture", { amount: 50_000, fees: 6_500, channel: "online" });
    expect(reply.body.data).toMatchObject({ status: "approved", decisionType: "direct-response" });
    expect(await available()).toBe(before - 56_500);
    const id = reply.body.data.id;
    await eventually(() =>
      expect(deliveredKinds(id)).toEqual([
        "card.authorization.request:pending",
        "card.authorization.closed:approved",
        "card.transaction.created",
      ]),
    );
    for (const r of received(id)) expect(r.headers["service-signature"]).toBe(sign(r.raw, SIGNING_KEY));
    expect(received(id).at(-1)!.json.data).toMatchObject({ amount: -50_000, fees: -6_500, card });
  });

  it("decline → declined with the code, the hold released", async () => {
    answers.set(7_000, { status: 200, body: { action: "decline", code: "insufficient-funds" } });
    const before = await available();
    const reply = await simulate("capture", { amount: 7_000, channel: "online" });
    expect(reply.body.data).toMatchObject({ status: "declined", declineReason: "insufficient-funds" });
    expect(await available()).toBe(before);
  });

  it("amount update approved → approved at the new amount; declined → declined, the capture kept", async () => {
    const before = await available();
    const up = await simulate("update-capture", { amount: 10_000, updateAmount: 12_000, channel: "online" });
    expect(up.body.data).toMatchObject({ status: "approved", amount: 12_000 });
    expect(await available()).toBe(before - 12_000);
    answers.set(20_000, { status: 200, body: { action: "decline", code: "insufficient-funds" } });
    const down = await simulate("update-capture", { amount: 11_000, updateAmount: 20_000, channel: "online" });
    expect(down.body.data).toMatchObject({ status: "declined", declineReason: "insufficient-funds", amount: 11_000 });
    expect(await available()).toBe(before - 23_000);
    await eventually(() =>
      expect(deliveredKinds(down.body.data.id).slice(-2)).toEqual([
        "card.authorization.update:pending",
        "card.authorization.closed:declined",
      ]),
    );
  });

  it("reversal → reversed, credited back to the settlement account, card.authorization.update (reversed) delivered", async () => {
    const before = await available();
    const reply = await simulate("reverse-capture", { amount: 3_000, fees: 100, channel: "online" });
    expect(reply.body.data.status).toBe("reversed");
    expect(await available()).toBe(before);
    await eventually(() => expect(deliveredKinds(reply.body.data.id)).toContain("card.authorization.update:reversed"));
  });

  it("check → approved with the receiver's cardBalance and name; no answer in time → the timeout default", async () => {
    const check = await simulate("check", { channel: "atm" });
    expect(check.body.data).toMatchObject({
      type: "check",
      status: "approved",
      cardBalance: 1,
      cardHolderName: "Ada Obi",
    });
    answers.set(4_321, { status: 200, body: { action: "approve" }, delayMs: 6_000 });
    const before = await available();
    const slow = await simulate("capture", { amount: 4_321, channel: "online" });
    expect(slow.body.data).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      statusReason: "timeout-error",
    });
    expect(await available()).toBe(before);
  });

  it("an engine killed after committing a request (event not yet published) ends it exactly once after restart", async () => {
    answers.set(9_999, { status: 200, body: { action: "approve" } });
    await platform.restart("authorization-engine", { CARDHOLD_FAILPOINTS: "authorization-engine:after-request" });
    const before = await available();
    const attempt = await simulate("capture", { amount: 9_999, channel: "online", reference: "crash-1" });
    expect(attempt.status).toBe(503);
    await platform.restart("authorization-engine");
    // The receiver's approval (or, if the engine came back after the deadline, the timeout default) decides it once.
    const { rows } = await db.query("SELECT id FROM engine.authorizations WHERE network_reference = 'crash-1'");
    const id = rows[0].id as string;
    await eventually(
      async () => expect((await api("GET", `/card-authorizations/${id}`)).body.data.decisionType).toBeDefined(),
      30_000,
    );
    const final = (await api("GET", `/card-authorizations/${id}`)).body.data;
    expect(await available()).toBe(final.status === "approved" ? before - 9_999 : before);
    const again = await simulate("capture", { amount: 9_999, channel: "online", reference: "crash-1" });
    expect(again.body.data.id).toBe(id);
    expect(await available()).toBe(final.status === "approved" ? before - 9_999 : before);
  });

  it("parallel captures on one card never overspend; a repeated network reference charges once", async () => {
    const program = await api("POST", "/card-programs", {
      name: "Card accounts",
      network: "mastercard",
      type: "virtual",
      currency: "NGN",
      authorization: { fundingSourceType: "card-account" },
    });
    const customers = (await api("GET", "/customers?limit=1")).body.data;
    const funded = await api("POST", "/cards", {
      program: program.body.data.id,
      customer: customers[0].id,
      reference: "stress-card",
      amount: 100_000,
      debitSource: settlement.id,
    });
    const stressCard = funded.body.data.id as string;
    const secrets = await api("GET", `/cards/${stressCard}/secrets`);
    await api("POST", `/cards/${stressCard}/activate`, { cvv: secrets.body.data.cvv, pin: "1357" });
    const capture = (body: Record<string, unknown>) =>
      api("POST", `/simulation/cards/${stressCard}/request-authorization/capture`, body);

    const replies = await Promise.all(Array.from({ length: 40 }, () => capture({ amount: 5_000, channel: "online" })));
    const approved = replies.filter((r) => r.body.data.status === "approved");
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(approved.length).toBe(20);
    expect(replies.filter((r) => r.body.data.declineReason === "insufficient-funds")).toHaveLength(20);
    const balance = (await api("GET", `/cards/${stressCard}/funding-source/balance`)).body.data;
    expect(balance).toMatchObject({ available: 0, ledger: 0, held: 0 });

    await api("POST", `/cards/${stressCard}/fund`, { amount: 10_000, debitSource: settlement.id });
    const same = await Promise.all(
      Array.from({ length: 10 }, () => capture({ amount: 4_000, channel: "online", reference: "same-network-ref" })),
    );
    expect(new Set(same.map((r) => r.body.data.id)).size).toBe(1);
    expect((await api("GET", `/cards/${stressCard}/funding-source/balance`)).body.data.available).toBe(6_000);
  });

  it("the ledger balances after all of it", async () => {
    expect(await ledgerProblems((text) => db.query(text))).toEqual([]);
  });
});
