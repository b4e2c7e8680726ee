import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sign } from "../../services/event-dispatcher/src/domain/signature";
import { apiClient, createBusiness } from "../support/api-client";
import { eventually } from "../support/eventually";
import { FakeReceiver } from "../support/fake-receiver";
import { untilDispatcherRoutesTo } from "./support/dispatcher-routing";
import { createScratchDatabase, DATABASE_URL, HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";
import { startPlatform, type Platform } from "./support/service-processes";
import { ADA_OBI } from "../support/card-holder";

/**
 * The public API the console draws with, through the gateway, the six services as separate processes on real Kafka
 * and PostgreSQL: a webhook's test event (routed to the dispatcher), the stats of authorizations and deliveries, and
 * an authorization's timeline (its events and its ledger entries by filter).
 */
describe.skipIf(!HAS_INFRASTRUCTURE)("the console's API against real Kafka and PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let platform: Platform;
  let db: pg.Client;
  let key = "";
  const defaultReceiver = new FakeReceiver();
  const testedReceiver = new FakeReceiver();
  const api = apiClient(
    () => platform.gatewayUrl,
    () => key,
  );
  let card = "";
  let settlement = "";

  beforeAll(async () => {
    defaultReceiver.answerWith((req) =>
      req.json?.event === "card.authorization.request"
        ? { status: 200, body: { action: req.json.data.amount === 7_000 ? "decline" : "approve" } }
        : { status: 200, body: { code: "success" } },
    );
    await defaultReceiver.start();
    await testedReceiver.start();
    database = await createScratchDatabase(DATABASE_URL!);
    platform = await startPlatform(database.url, KAFKA_BROKERS!);
    await platform.restart("event-dispatcher", { DISPATCHER_RETRY_DELAYS_MS: "300,600", DISPATCHER_CLAIM_MS: "5000" });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    key = (
      await createBusiness(platform.gatewayUrl, platform.operatorToken, {
        name: "Console Ltd",
        webhookUrl: defaultReceiver.url,
      })
    ).testKey;
    const customer = await api("POST", "/customers", ADA_OBI);
    const accounts = await eventually(async () => {
      const list = await api("GET", "/accounts?filter=currency:NGN");
      expect(list.body.data).toHaveLength(1);
      return list.body.data;
    }, 30_000);
    settlement = accounts[0].id;
    const accountNumber = accounts[0].depositChannels[0].accountNumber;
    await api("POST", "/simulation/payments/pay-in", { accountNumber, amount: 100_000, reference: "funding-1" });
    const program = await api("POST", "/card-programs", {
      name: "Virtual NGN",
      network: "verve",
      type: "virtual",
      currency: "NGN",
    });
    const issued = await eventually(async () => {
      const reply = await api("POST", "/cards", {
        program: program.body.data.id,
        customer: customer.body.data.id,
        reference: "card-1",
      });
      expect(reply.status).toBe(201);
      return reply;
    }, 30_000);
    card = issued.body.data.id;
    const secrets = await api("GET", `/cards/${card}/secrets`);
    await api("POST", `/cards/${card}/activate`, { cvv: secrets.body.data.cvv, pin: "2468" });
    await untilDispatcherRoutesTo(db, defaultReceiver.url);
  });

  afterAll(async () => {
    await db?.end();
    await platform?.stop();
    await database?.drop();
    await defaultReceiver.stop();
    await testedReceiver.stop();
  });

  it("POST /webhooks/:id/test reaches the dispatcher: a signed webhook.test to that webhook alone, retried", async () => {
    const created = await api("POST", "/webhooks", {
      name: "Ledger sync",
      url: testedReceiver.url,
      events: ["card.transaction.created"],
    });
    expect(created.status).toBe(201);
    const hook = created.body.data.id as string;
    const { signingKey } = (await api("GET", `/webhooks/${hook}/secret`)).body.data;
    await untilDispatcherRoutesTo(db, testedReceiver.url);
    let calls = 0;
    testedReceiver.answerWith(() => (++calls === 1 ? { status: 500 } : { status: 200 }));
    const before = defaultReceiver.received.length;
    const sent = await api("POST", `/webhooks/${hook}/test`, {});
    expect(sent.status).toBe(202);
    expect(sent.body.data).toMatchObject({ event: "webhook.test", resource: hook, data: { webhookId: hook } });
    const id = sent.body.data.id as string;
    const delivered = await eventually(async () => {
      const event = await api("GET", `/events/${id}`);
      expect(event.body.data.status).toBe("delivered");
      return event.body.data;
    }, 30_000);
    expect(delivered.deliveries[0].attempts.map((a: { httpStatus: number }) => a.httpStatus)).toEqual([500, 200]);
    const got = testedReceiver.byEvent(id);
    expect(got).toHaveLength(2);
    for (const r of got) expect(r.headers["service-signature"]).toBe(sign(r.raw, signingKey));
    expect(defaultReceiver.received.slice(before).filter((r) => r.json?.metadata?.event === id)).toEqual([]);
    expect((await api("POST", "/webhooks/wh.unknown/test", {})).status).toBe(404);

    const stats = await api("GET", "/events/stats?window=hour");
    expect(stats.status).toBe(200);
    expect(stats.body.data.totals.failed).toBe(1);
    expect(stats.body.data.totals.attempts).toBeGreaterThanOrEqual(2);
    expect((await api("GET", "/events/stats?window=year")).status).toBe(400);
  });

  it("authorization stats, and one authorization's events and ledger entries by filter", async () => {
    const capture = (amount: number) =>
      api("POST", `/simulation/cards/${card}/request-authorization/capture`, { amount, channel: "online" });
    const approved = await capture(5_000);
    expect(approved.body.data.status).toBe("approved");
    expect((await capture(7_000)).body.data.status).toBe("declined");
    expect((await capture(1_000_000)).body.data).toMatchObject({ declineReason: "insufficient-funds" });

    const stats = await api("GET", "/card-authorizations/stats?window=day");
    expect(stats.status).toBe(200);
    expect(stats.body.data.buckets).toHaveLength(96);
    expect(stats.body.data.totals).toMatchObject({ count: 3, approved: 1, declined: 2 });
    expect(stats.body.data.totals.declinedByReason).toEqual({ "insufficient-funds": 1, unspecified: 1 });
    expect(stats.body.data.totals.decisionLatencyP99Ms).toBeGreaterThan(0);

    const id = approved.body.data.id as string;
    const events = await eventually(async () => {
      const list = await api("GET", `/events?filter=${encodeURIComponent(`resourceId:${id}`)}&sort=createdAt`);
      expect(list.body.data.map((e: { event: string }) => e.event)).toEqual([
        "card.authorization.request",
        "card.authorization.closed",
        "card.transaction.created",
      ]);
      return list.body.data;
    }, 30_000);
    expect(events.every((e: { resource: string }) => e.resource === id)).toBe(true);
    const entries = await api("GET", `/accounts/${settlement}/logs?filter=${encodeURIComponent(`reference:${id}`)}`);
    expect(entries.body.data.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ["capture", -5_000],
    ]);
  });

  it("the console in the distributed mode: its page, a session for the key, a capture seen on the live stream", async () => {
    const page = await fetch(`${platform.gatewayUrl}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");

    const signIn = await fetch(`${platform.gatewayUrl}/console/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key }),
    });
    expect(signIn.status).toBe(201);
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    expect(signIn.headers.get("set-cookie")).toMatch(/HttpOnly/i);

    const stream = new AbortController();
    const live = await fetch(`${platform.gatewayUrl}/console/api/stream/card-authorizations`, {
      headers: { cookie, accept: "text/event-stream" },
      signal: stream.signal,
    });
    expect(live.status).toBe(200);
    const reader = live.body!.getReader();

    const capturePath = `/simulation/cards/${card}/request-authorization/capture`;
    const asSession = (headers: Record<string, string>) =>
      fetch(`${platform.gatewayUrl}${capturePath}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", ...headers },
        body: JSON.stringify({ amount: 2_500, channel: "online" }),
      });
    expect((await asSession({})).status).toBe(403); // a write with the cookie needs the CSRF token
    const captured = await asSession({ "x-csrf-token": csrfToken });
    expect(captured.status).toBe(200);
    const id = ((await captured.json()) as { data: { id: string } }).data.id;

    let text = "";
    const deadline = Date.now() + 20_000;
    while (!text.includes(id) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    stream.abort();
    expect(text).toContain("event: card-authorization");
    expect(text).toContain(id);
  });
});
