import { readFile } from "node:fs/promises";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllInOne, type AllInOne } from "./all-in-one";
import { callGateway, type GatewayCall } from "../../../test/support/api-client";
import { eventually } from "../../../test/support/eventually";
import { FakeReceiver, type Answer, type ReceivedRequest } from "../../../test/support/fake-receiver";
import { ledgerProblems } from "../../../test/support/ledger-invariants";

/**
 * The all-in-one mode (`cardhold dev`: every service in one process, the in-memory bus): a webhook's stand-in rule
 * decides a capture whose receiver answered unusably, and a receiver approves less where the request allows it; the
 * deliveries verify with the Standard Webhooks library.
 */

let platform: AllInOne;
const receiver = new FakeReceiver();
beforeAll(async () => {
  receiver.answerWith(answer);
  await receiver.start("/decisions");
  platform = await startAllInOne({ port: 0, logLevel: "silent" });
});
afterAll(async () => {
  await platform?.stop();
  await receiver.stop();
});

/** The receiver approves 7,500 of 10,000, and 2,000 of 3,000 (where it was not allowed: unusable). */
function answer(req: ReceivedRequest): Answer {
  if (req.json?.event !== "card.authorization.request") return { status: 200, body: { code: "success" } };
  const partial: Record<number, number> = { 10_000: 7_500, 3_000: 2_000 };
  const amount = partial[req.json.data.amount as number];
  return { status: 200, body: amount === undefined ? { action: "approve" } : { action: "approve", amount } };
}

const call = (method: string, path: string, body?: unknown, opts: GatewayCall = {}) =>
  callGateway(platform.url, method, path, { key: platform.defaultBusiness.testKey, body, ...opts });

const standIn = { rules: [{ name: "small-online", approveUpTo: 5_000, channels: ["online"] }], otherwise: "decline" };

/** The decisions webhook with its rules, enabled, and known to the engine and the dispatcher. */
async function decisionsWebhook(): Promise<string> {
  const created = await call("POST", "/webhooks", {
    name: "decisions",
    events: ["card.authorization.request"],
    url: receiver.url,
    standIn,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.id as string;
  await call("POST", `/webhooks/${id}/enable`, {});
  await eventually(async () => {
    const engine = await platform.db.query("SELECT status, stand_in FROM engine.webhooks WHERE id = $1", [id]);
    expect(engine.rows[0]).toMatchObject({ status: "enabled", stand_in: standIn });
    const dispatcher = await platform.db.query("SELECT status FROM dispatcher.webhooks WHERE id = $1", [id]);
    expect(dispatcher.rows[0]).toMatchObject({ status: "enabled" });
  }, 10_000);
  return id;
}

/** An active card of a program without stand-in rules, paid from a settlement account holding 100,000. */
async function activeCard(): Promise<{ card: string; settlement: string }> {
  const fixture = new URL("../../../test/fixtures/customer-create-response.json", import.meta.url);
  const { name, type, claims, metadata } = JSON.parse(await readFile(fixture, "utf8")).data;
  const body = { name, type, claims, metadata, reference: "stand-in", verifications: ["tier-2"] };
  const customer = await call("POST", "/customers", body);
  expect(customer.status, JSON.stringify(customer.body)).toBe(201);
  const program = await call("POST", "/card-programs", {
    name: "Virtual NGN",
    network: "verve",
    type: "virtual",
    currency: "NGN",
  });
  const settlement = program.body.data.authorization.settlementAccount as string;
  const account = (await call("GET", `/accounts/${settlement}`)).body.data;
  await call("POST", "/simulation/payments/pay-in", {
    accountNumber: account.depositChannels[0].accountNumber,
    amount: 100_000,
  });
  const issued = await call("POST", "/cards", {
    program: program.body.data.id,
    customer: customer.body.data.id,
    reference: "stand-in-card",
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  const card = issued.body.data.id as string;
  const { cvv } = (await call("GET", `/cards/${card}/secrets`)).body.data;
  await call("POST", `/cards/${card}/activate`, { cvv, pin: "2468" });
  return { card, settlement };
}

describe("stand-in rules on a webhook and partial approval, all in one process", () => {
  it("an unusable answer: the webhook's rule decides; a partial answer where allowed: that amount is debited", async () => {
    const webhook = await decisionsWebhook();
    const { card, settlement } = await activeCard();
    const capture = (body: Record<string, unknown>) =>
      call("POST", `/simulation/cards/${card}/request-authorization/capture`, body);
    const available = async () => (await call("GET", `/accounts/${settlement}/balance`)).body.data.available;

    const unusable = await capture({ amount: 3_000, channel: "online" });
    expect(unusable.body.data).toMatchObject({
      status: "approved",
      amount: 3_000,
      decisionType: "stand-in",
      standInRule: "small-online",
      standInSource: "webhook",
      statusReason: "invalid-response",
    });
    expect(await available()).toBe(97_000);

    const partial = await capture({ amount: 10_000, channel: "pos", partialApprovalAllowed: true });
    expect(partial.body.data).toMatchObject({
      status: "approved",
      decisionType: "direct-response",
      amount: 7_500,
      requestedAmount: 10_000,
    });
    expect((await call("GET", `/accounts/${settlement}/balance`)).body.data).toMatchObject({
      available: 89_500,
      ledger: 89_500,
      held: 0,
    });
    expect(await ledgerProblems((text) => platform.db.query(text))).toEqual([]);

    // Every delivery is also signed as Standard Webhooks defines it, with the secret the webhooks API returns.
    const { standardWebhooksSecret } = (await call("GET", `/webhooks/${webhook}/secret`)).body.data;
    const requests = receiver.received.filter((r) => r.json?.event === "card.authorization.request");
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const delivery of requests) {
      const headers = delivery.headers as Record<string, string>;
      expect(new Webhook(standardWebhooksSecret).verify(delivery.raw.toString("utf8"), headers)).toEqual(delivery.json);
    }
    const forged = { ...(requests[0]!.headers as Record<string, string>), "webhook-id": "msg_forged" };
    expect(() => new Webhook(standardWebhooksSecret).verify(requests[0]!.raw.toString("utf8"), forged)).toThrow();
  });
});
