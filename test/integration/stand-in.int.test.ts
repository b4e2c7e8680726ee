import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually";
import type { Answer, ReceivedRequest } from "../support/fake-receiver";
import { HAS_INFRASTRUCTURE } from "./support/infrastructure";
import { paymentsPlatform } from "./support/payments-platform";
import { ADA_OBI } from "../support/card-holder";

/** What the receiver answers each decision event, by the capture's amount (anything else: a plain approve). */
const SLOW_WITHIN_RULE = 4_321;
const SLOW_PAST_RULE = 6_000;
const PARTIAL_ASKED = 10_000;
const PARTIAL_APPROVED = 7_500;
const PARTIAL_NOT_ALLOWED = 3_000;
const ANSWERS = new Map<number, Answer>([
  [SLOW_WITHIN_RULE, { status: 200, body: { action: "approve" }, delayMs: 6_000 }],
  [SLOW_PAST_RULE, { status: 200, body: { action: "approve" }, delayMs: 6_000 }],
  [PARTIAL_ASKED, { status: 200, body: { action: "approve", amount: PARTIAL_APPROVED } }],
  [PARTIAL_NOT_ALLOWED, { status: 200, body: { action: "approve", amount: 2_000 } }],
]);

function answer(req: ReceivedRequest): Answer {
  if (req.json?.event !== "card.authorization.request") return { status: 200, body: { code: "success" } };
  return ANSWERS.get(req.json.data.amount) ?? { status: 200, body: { action: "approve" } };
}

const standIn = { rules: [{ name: "small-online", approveUpTo: 5_000, channels: ["online"] }], otherwise: "decline" };

/**
 * A webhook's stand-in rules and partial approval in the distributed wiring: the six services as separate processes on
 * real Kafka and PostgreSQL. The rules travel registry → webhooks.v1 → the engine's copy; the decision event goes to
 * that webhook through the dispatcher; a receiver too slow (or unusable) leaves the decision to the rules.
 */
describe.skipIf(!HAS_INFRASTRUCTURE)(
  "stand-in rules on a webhook, and partial approval, on Kafka and PostgreSQL",
  () => {
    const h = paymentsPlatform({ name: "Stand-in Ltd", signingKey: "stand-in-it-signing-key-0123456789" });
    const { api, available, booksBalance } = h;
    let card = "";
    let webhook = "";
    let decisionsUrl = "";

    const capture = (body: Record<string, unknown>) =>
      api("POST", `/simulation/cards/${card}/request-authorization/capture`, body);
    /** The distinct events the receiver got for an authorization, at which path. */
    const delivered = (id: string) => {
      const byEvent = new Map<string, ReceivedRequest>();
      for (const r of h.receiver.received.filter((r) => r.json?.data?.id === id || r.json?.data?.authorization === id))
        byEvent.set(r.json.metadata.event, r);
      return [...byEvent.values()];
    };
    const closedEventOf = (id: string) =>
      eventually(() => {
        const closed = delivered(id).find((r) => r.json.event === "card.authorization.closed");
        expect(closed).toBeDefined();
        return closed!;
      }, 30_000);

    beforeAll(async () => {
      h.receiver.answerWith(answer);
      await h.start();
      decisionsUrl = h.receiver.url.replace(/\/hook$/, "/decisions");
      const created = await api("POST", "/webhooks", {
        name: "decisions",
        events: ["card.authorization.request"],
        url: decisionsUrl,
        standIn,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      webhook = created.body.data.id;
      expect((await api("POST", `/webhooks/${webhook}/enable`, {})).body.data.status).toBe("enabled");
      // The engine decides by its copy of the webhook, the dispatcher routes by its own: both learn from webhooks.v1.
      await eventually(async () => {
        const engine = await h.db.query("SELECT status, stand_in FROM engine.webhooks WHERE id = $1", [webhook]);
        expect(engine.rows[0]).toMatchObject({ status: "enabled", stand_in: { rules: standIn.rules } });
        const dispatcher = await h.db.query("SELECT status FROM dispatcher.webhooks WHERE id = $1", [webhook]);
        expect(dispatcher.rows[0]).toMatchObject({ status: "enabled" });
      }, 30_000);

      const customer = await api("POST", "/customers", ADA_OBI);
      const program = await api("POST", "/card-programs", {
        name: "Virtual NGN",
        network: "verve",
        type: "virtual",
        currency: "NGN",
      });
      expect(program.body.data.authorization).not.toHaveProperty("standIn");
      const issued = await api("POST", "/cards", {
        program: program.body.data.id,
        customer: customer.body.data.id,
        reference: "stand-in-card",
      });
      expect(issued.status, JSON.stringify(issued.body)).toBe(201);
      card = issued.body.data.id;
      const secrets = await api("GET", `/cards/${card}/secrets`);
      await api("POST", `/cards/${card}/activate`, { cvv: secrets.body.data.cvv, pin: "2468" });
    });
    afterAll(() => h.stop());

    it("the webhook shows its rules", async () => {
      expect((await api("GET", `/webhooks/${webhook}`)).body.data.standIn).toEqual(standIn);
    });

    it("a receiver that does not answer in time: the webhook's rule decides, and the closed event says so", async () => {
      const before = await available();
      const [within, past] = await Promise.all([
        capture({ amount: SLOW_WITHIN_RULE, channel: "online" }),
        capture({ amount: SLOW_PAST_RULE, channel: "online" }),
      ]);
      const byWebhookRule = {
        decisionType: "stand-in",
        standInRule: "small-online",
        standInSource: "webhook",
        statusReason: "timeout-error",
      };
      expect(within.body.data).toMatchObject({ status: "approved", amount: SLOW_WITHIN_RULE, ...byWebhookRule });
      expect(past.body.data).toMatchObject({ status: "declined", reserved: false, ...byWebhookRule });
      expect(await available()).toBe(before - SLOW_WITHIN_RULE);

      const asked = delivered(within.body.data.id).find((r) => r.json.event === "card.authorization.request");
      expect(asked?.path).toBe(new URL(decisionsUrl).pathname); // the decision went to the webhook whose rules decided
      for (const [id, status] of [
        [within.body.data.id, "approved"],
        [past.body.data.id, "declined"],
      ] as const) {
        expect((await closedEventOf(id)).json.data).toMatchObject({ status, ...byWebhookRule });
      }
    }, 60_000);

    it("partial approval: the receiver approves less where allowed; hold, debit, events and ledger use that amount", async () => {
      const before = await available();
      const reply = await capture({ amount: PARTIAL_ASKED, fees: 100, channel: "pos", partialApprovalAllowed: true });
      expect(reply.body.data).toMatchObject({
        status: "approved",
        decisionType: "direct-response",
        amount: PARTIAL_APPROVED,
        requestedAmount: PARTIAL_ASKED,
        fees: 100,
        reserved: false,
      });
      const id = reply.body.data.id as string;
      const balance = (await api("GET", `/accounts/${h.settlement}/balance`)).body.data;
      expect(balance).toMatchObject({ available: before - PARTIAL_APPROVED - 100, held: 0 });
      expect(balance.ledger).toBe(balance.available);
      const logs = (await api("GET", `/accounts/${h.settlement}/logs?filter=reference:${id}`)).body.data;
      expect(logs.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
        ["capture", -(PARTIAL_APPROVED + 100)],
      ]);
      const record = (await api("GET", `/card-authorizations/${id}`)).body.data;
      expect(record.networkData.responseBody).toMatchObject({ amount: PARTIAL_APPROVED, responseCode: "10" });

      expect((await closedEventOf(id)).json.data).toMatchObject({
        status: "approved",
        amount: PARTIAL_APPROVED,
        requestedAmount: PARTIAL_ASKED,
      });
      const transaction = await eventually(() => {
        const found = delivered(id).find((r) => r.json.event === "card.transaction.created");
        expect(found).toBeDefined();
        return found!;
      }, 30_000);
      expect(transaction.json.data).toMatchObject({ amount: -PARTIAL_APPROVED, fees: -100 });
    }, 60_000);

    it("a smaller approve where partial approval was not allowed is unusable: the webhook's rule decides the whole amount", async () => {
      const before = await available();
      const reply = await capture({ amount: PARTIAL_NOT_ALLOWED, channel: "online" });
      expect(reply.body.data).toMatchObject({
        status: "approved",
        amount: PARTIAL_NOT_ALLOWED,
        decisionType: "stand-in",
        standInRule: "small-online",
        standInSource: "webhook",
        statusReason: "invalid-response",
      });
      expect(await available()).toBe(before - PARTIAL_NOT_ALLOWED);
    }, 30_000);

    it("the ledger balances after all of it", async () => {
      await booksBalance();
    });

    it("every delivery to the webhook verifies with the Standard Webhooks library and the secret the API returns", async () => {
      const { standardWebhooksSecret } = (await api("GET", `/webhooks/${webhook}/secret`)).body.data;
      const deliveries = h.receiver.received.filter((r) => r.path === new URL(decisionsUrl).pathname);
      expect(deliveries.length).toBeGreaterThanOrEqual(3);
      for (const delivery of deliveries) {
        const body = delivery.raw.toString("utf8");
        expect(new Webhook(standardWebhooksSecret).verify(body, delivery.headers as Record<string, string>)).toEqual(
          delivery.json,
        );
      }
    });
  },
);
