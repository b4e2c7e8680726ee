import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MemoryBus } from "@cardhold/bus";
import { TOPICS, type DecisionAnsweredMessage, type WebhookChangedMessage } from "@cardhold/contracts";
import { newId, type Listening } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { sign } from "../src/domain/signature";
import { announceWebhook } from "./calls";
import { INTERNAL, startDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
let bus: MemoryBus;
let http: Listening;
let decisions: DecisionAnsweredMessage[];
const receivers: FakeReceiver[] = [];

beforeAll(async () => {
  h = await startDispatcher();
  ({ bus, http, decisions } = h);
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await h?.stop();
});

async function receiver(): Promise<FakeReceiver> {
  const r = new FakeReceiver();
  receivers.push(r);
  await r.start();
  return r;
}

/** A webhook announced on webhooks.v1, as the registry does. */
const webhook = (businessId: string, url: string, change: Partial<WebhookChangedMessage["data"]> = {}) =>
  announceWebhook(bus, businessId, url, change);

async function publishEvent(
  businessId: string,
  event: string,
  data: Record<string, unknown>,
  resourceId?: string,
  answerBy?: Date,
) {
  const message = eventMessage(businessId, event, data, resourceId);
  if (answerBy) (message.value as { data: { answerBy?: string } }).data.answerBy = answerBy.toISOString();
  await bus.publish([message]);
  return { id: message.eventId, resourceId: message.resourceId, value: message.value };
}

async function api(method: string, path: string, businessId: string, body?: unknown) {
  const res = await fetch(http.url + path, {
    method,
    headers: {
      "x-internal-token": INTERNAL,
      "x-business-id": businessId,
      "x-mode": "test",
      "content-type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const business = () => newId("business");

describe("notification delivery", () => {
  it("POSTs the exact envelope bytes with a Service-Signature over them, once, and records the attempt", async () => {
    const r = await receiver();
    const biz = business();
    const hook = await webhook(biz, r.url);
    const { id } = await publishEvent(biz, "card.transaction.created", { amount: -50000, note: "ünïcode" });
    await eventually(() => expect(r.byEvent(id)).toHaveLength(1));
    const got = r.byEvent(id)[0]!;
    expect(got.headers["service-signature"]).toBe(sign(got.raw, hook.signingKey));
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.json).toMatchObject({
      event: "card.transaction.created",
      data: { amount: -50000 },
      metadata: { event: id },
    });
    const event = await eventually(async () => {
      const res = await api("GET", `/events/${id}`, biz);
      expect(res.body.data.status).toBe("delivered");
      return res.body.data;
    });
    expect(event.deliveries).toEqual([
      expect.objectContaining({
        webhook: hook.id,
        status: "delivered",
        attempts: [
          expect.objectContaining({ attempt: 1, trigger: "initial", url: r.url, httpStatus: 200, error: null }),
        ],
      }),
    ]);
  });

  it("sends again until HTTP 200, keeping the same event id and bytes", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    let calls = 0;
    r.answerWith(() => (++calls <= 2 ? { status: calls === 1 ? 500 : 201 } : { status: 200 }));
    const { id } = await publishEvent(biz, "card.authorization.closed", { status: "approved" });
    await eventually(() => expect(r.byEvent(id)).toHaveLength(3), 10_000);
    const attempts = r.byEvent(id);
    expect(new Set(attempts.map((a) => a.raw.toString())).size).toBe(1);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(150);
    const event = await eventually(async () => {
      const res = await api("GET", `/events/${id}`, biz);
      expect(res.body.data.status).toBe("delivered");
      return res.body.data;
    });
    expect(
      event.deliveries[0].attempts.map((a: { httpStatus: number; trigger: string }) => [a.httpStatus, a.trigger]),
    ).toEqual([
      [500, "initial"],
      [201, "scheduled"],
      [200, "scheduled"],
    ]);
  });

  it("marks the event failed when the retry window is used up, and POST /events/:id/retry sends it again now", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    r.answerWith({ status: 503 });
    const { id } = await publishEvent(biz, "card.authorization.closed", { status: "declined" });
    await eventually(
      async () => expect((await api("GET", `/events/${id}`, biz)).body.data.status).toBe("failed"),
      10_000,
    );
    const before = r.byEvent(id).length;
    expect(before).toBeGreaterThanOrEqual(3);
    r.answerWith({ status: 200 });
    expect((await api("POST", `/events/${id}/retry`, biz, { unexpected: 1 })).status).toBe(400);
    const retried = await api("POST", `/events/${id}/retry`, biz, {});
    expect(retried.status).toBe(200);
    await eventually(async () => expect((await api("GET", `/events/${id}`, biz)).body.data.status).toBe("delivered"));
    expect(r.byEvent(id).length).toBe(before + 1);
    const attempts = (await api("GET", `/events/${id}`, biz)).body.data.deliveries[0].attempts;
    expect(attempts.at(-1)).toMatchObject({ trigger: "manual", httpStatus: 200 });
  });

  it("answers 404 for another business's event", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    const { id } = await publishEvent(biz, "card.transaction.created", {});
    await eventually(() => expect(r.byEvent(id)).toHaveLength(1));
    expect((await api("GET", `/events/${id}`, business())).status).toBe(404);
    expect((await api("POST", `/events/${id}/retry`, business(), {})).status).toBe(404);
  });
});

describe("decision events", () => {
  it("are sent once and their answer is published on decisions.v1", async () => {
    const r = await receiver();
    const biz = business();
    const hook = await webhook(biz, r.url);
    r.answerWith({ status: 200, body: { action: "approve" } });
    const { id, resourceId } = await publishEvent(biz, "card.authorization.request", {
      type: "capture",
      status: "pending",
    });
    const answer = await eventually(() => {
      const found = decisions.find((d) => d.data.eventId === id);
      expect(found).toBeDefined();
      return found!;
    });
    expect(answer).toMatchObject({
      businessId: biz,
      mode: "test",
      data: { resourceId, webhookId: hook.id, httpStatus: 200, body: { action: "approve" }, error: null },
    });
    expect(answer.data.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("are not retried after a failure; the failure is the answer", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    r.answerWith({ status: 500, body: { oops: true } });
    const { id } = await publishEvent(biz, "card.authorization.update", { status: "pending" });
    await eventually(() => expect(decisions.find((d) => d.data.eventId === id)?.data.httpStatus).toBe(500));
    await new Promise((res) => setTimeout(res, 600));
    expect(r.byEvent(id)).toHaveLength(1);
  });

  it("time out after 4 seconds with error timeout", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    r.answerWith({ status: 200, body: { action: "approve" }, delayMs: 6_000 });
    const started = Date.now();
    const { id } = await publishEvent(biz, "card.authorization.request", { type: "check" });
    const answer = await eventually(() => {
      const found = decisions.find((d) => d.data.eventId === id);
      expect(found).toBeDefined();
      return found!;
    }, 10_000);
    expect(answer.data).toMatchObject({ error: "timeout", httpStatus: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_900);
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it("never wait on the receiver past their deadline (answerBy), and leave the decision to the engine's default", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    r.answerWith({ status: 200, body: { action: "approve" }, delayMs: 3_000 });
    const started = Date.now();
    const { id } = await publishEvent(
      biz,
      "card.authorization.request",
      { type: "capture" },
      undefined,
      new Date(started + 1_000),
    );
    const attempt = await eventually(async () => {
      const event = (await api("GET", `/events/${id}`, biz)).body.data;
      expect(event.status).toBe("failed");
      return event.deliveries[0].attempts[0];
    }, 5_000);
    expect(attempt).toMatchObject({ httpStatus: null, error: expect.stringMatching(/^no answer within \d+ ms$/) });
    expect(Date.now() - started).toBeLessThan(1_500);
    // The engine applies its timeout default at the deadline itself: an answer `timeout` would decide it twice.
    await new Promise((res) => setTimeout(res, 300));
    expect(decisions.filter((d) => d.data.eventId === id)).toEqual([]);
  });

  it("too close to their deadline are not sent: answered platform-overloaded at once, the attempt says why", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    r.answerWith({ status: 200, body: { action: "approve" } });
    const { id } = await publishEvent(
      biz,
      "card.authorization.request",
      { type: "capture" },
      undefined,
      new Date(Date.now() + 100),
    );
    await eventually(() =>
      expect(decisions.find((d) => d.data.eventId === id)?.data.error).toBe("platform-overloaded"),
    );
    expect(r.byEvent(id)).toHaveLength(0);
    const attempts = (await api("GET", `/events/${id}`, biz)).body.data.deliveries[0].attempts;
    expect(attempts[0].error).toMatch(/not sent: less than 250 ms left before the decision's deadline/);
    expect(await (await fetch(`${http.url}/metrics`)).text()).toMatch(/decisions_not_sent_total\{[^}]*\} [1-9]/);
  });

  it("with no webhook to send to are answered at once with no-webhook", async () => {
    const { id } = await publishEvent(business(), "card.authorization.request", { type: "capture" });
    await eventually(() => expect(decisions.find((d) => d.data.eventId === id)?.data.error).toBe("no-webhook"));
  });
});

describe("routing and isolation", () => {
  it("an enabled webhook takes its kinds from the default; disabling gives them back", async () => {
    const fallback = await receiver();
    const special = await receiver();
    const biz = business();
    await webhook(biz, fallback.url);
    const extra = await webhook(biz, special.url, {
      isDefault: false,
      events: ["card.transaction.created"],
      status: "created",
    });
    const first = await publishEvent(biz, "card.transaction.created", {});
    await eventually(() => expect(fallback.byEvent(first.id)).toHaveLength(1));

    await webhook(biz, special.url, {
      id: extra.id,
      signingKey: extra.signingKey,
      isDefault: false,
      events: ["card.transaction.created"],
      status: "enabled",
    });
    const second = await publishEvent(biz, "card.transaction.created", {});
    const other = await publishEvent(biz, "card.authorization.closed", { status: "approved" });
    await eventually(() => expect(special.byEvent(second.id)).toHaveLength(1));
    expect(special.byEvent(second.id)[0]!.headers["service-signature"]).toBe(
      sign(special.byEvent(second.id)[0]!.raw, extra.signingKey),
    );
    await eventually(() => expect(fallback.byEvent(other.id)).toHaveLength(1));
    expect(fallback.byEvent(second.id)).toHaveLength(0);

    await webhook(biz, special.url, {
      id: extra.id,
      signingKey: extra.signingKey,
      isDefault: false,
      events: ["card.transaction.created"],
      status: "disabled",
    });
    const third = await publishEvent(biz, "card.transaction.created", {});
    await eventually(() => expect(fallback.byEvent(third.id)).toHaveLength(1));
    expect(special.byEvent(third.id)).toHaveLength(0);
  });

  it("events about one resource arrive in the order produced, while other resources are not held up", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    const resource = `c.auth.${Math.random()}`;
    let failuresLeft = 2;
    r.answerWith((req) =>
      req.json?.data?.id === resource && req.json?.data?.step === 1 && failuresLeft-- > 0
        ? { status: 500 }
        : { status: 200 },
    );
    const one = await publishEvent(biz, "card.authorization.closed", { step: 1, status: "approved" }, resource);
    const two = await publishEvent(biz, "card.transaction.created", { step: 2 }, resource);
    const elsewhere = await publishEvent(biz, "card.transaction.created", { step: 9 });
    await eventually(() => expect(r.byEvent(elsewhere.id)).toHaveLength(1));
    expect(r.byEvent(two.id)).toHaveLength(0);
    await eventually(() => expect(r.byEvent(two.id)).toHaveLength(1), 10_000);
    const order = r.received.filter((q) => q.json?.data?.id === resource).map((q) => q.json.metadata.event);
    expect(order).toEqual([one.id, one.id, one.id, two.id]);
  });

  it("a resource's events published together (one batch) are sent in order; a failed first holds the rest back", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    const resource = `c.auth.${Math.random()}`;
    let failuresLeft = 1;
    r.answerWith((req) => (req.json?.data?.step === 1 && failuresLeft-- > 0 ? { status: 500 } : { status: 200 }));
    const messages = [1, 2, 3].map((step) =>
      eventMessage(biz, step === 1 ? "card.authorization.closed" : "card.transaction.created", { step }, resource),
    );
    await bus.publish(messages);
    await eventually(() => expect(r.byEvent(messages[2]!.eventId)).toHaveLength(1), 10_000);
    const order = r.received.filter((q) => q.json?.data?.id === resource).map((q) => q.json.metadata.event);
    expect(order).toEqual([messages[0]!.eventId, messages[0]!.eventId, messages[1]!.eventId, messages[2]!.eventId]);
    for (const m of messages) {
      await eventually(async () =>
        expect((await api("GET", `/events/${m.eventId}`, biz)).body.data.status).toBe("delivered"),
      );
    }
  });

  it("a resource's events published together go out as the receiver takes each; their attempts are written after the last", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    const resource = `c.auth.${Math.random()}`;
    const messages = [1, 2].map((step) =>
      eventMessage(biz, step === 1 ? "card.authorization.closed" : "card.transaction.created", { step }, resource),
    );
    let firstAttemptsWhenSecondCame: Promise<number> | undefined;
    r.answerWith((req) => {
      if (req.json?.metadata?.event !== messages[1]!.eventId) return { status: 200 };
      firstAttemptsWhenSecondCame ??= h.pg.db
        .query<{ n: number }>("SELECT count(*)::int AS n FROM dispatcher.attempts WHERE event_id = $1", [
          messages[0]!.eventId,
        ])
        .then(({ rows }) => rows[0]!.n);
      // Answered late enough for the count above to see the database as it was while the second was being sent.
      return { status: 200, delayMs: 300 };
    });
    await bus.publish(messages);
    await eventually(() => expect(r.byEvent(messages[1]!.eventId)).toHaveLength(1), 10_000);
    expect(await firstAttemptsWhenSecondCame).toBe(0);
    for (const m of messages) {
      await eventually(async () =>
        expect((await api("GET", `/events/${m.eventId}`, biz)).body.data.status).toBe("delivered"),
      );
    }
    const order = r.received.filter((q) => q.json?.data?.id === resource).map((q) => q.json.metadata.event);
    expect(order).toEqual(messages.map((m) => m.eventId));
  });

  it("a slow receiver does not delay another business's deliveries", async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.answerWith({ status: 200, delayMs: 2_000 });
    const slowBiz = business();
    const fastBiz = business();
    await webhook(slowBiz, slow.url);
    await webhook(fastBiz, fast.url);
    // More slow deliveries than there are slots in all: the per-webhook cap keeps room for others.
    await Promise.all(Array.from({ length: 300 }, (_, i) => publishEvent(slowBiz, "card.transaction.created", { i })));
    const started = Date.now();
    const quick = await publishEvent(fastBiz, "card.transaction.created", {});
    await eventually(() => expect(fast.byEvent(quick.id)).toHaveLength(1));
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("a webhook gets 8 notifications at once to begin with, more while it answers within a second, never more than 64", async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.answerWith({ status: 200, delayMs: 1_100 });
    fast.answerWith({ status: 200, delayMs: 20 });
    const slowBiz = business();
    const fastBiz = business();
    await webhook(slowBiz, slow.url);
    await webhook(fastBiz, fast.url);
    const slowEvents = await Promise.all(
      Array.from({ length: 24 }, (_, i) => publishEvent(slowBiz, "card.transaction.created", { i })),
    );
    const fastEvents = await Promise.all(
      Array.from({ length: 600 }, (_, i) => publishEvent(fastBiz, "card.transaction.created", { i })),
    );
    await eventually(() => expect(fast.received.length).toBeGreaterThanOrEqual(fastEvents.length), 15_000);
    await eventually(() => expect(slow.received.length).toBeGreaterThanOrEqual(slowEvents.length), 15_000);
    expect(slow.mostAtOnce).toBe(8);
    expect(fast.mostAtOnce).toBeGreaterThan(8);
    expect(fast.mostAtOnce).toBeLessThanOrEqual(64);
  });

  it("a redelivered events.v1 message is delivered once", async () => {
    const r = await receiver();
    const biz = business();
    await webhook(biz, r.url);
    const { id, value, resourceId } = await publishEvent(biz, "card.transaction.created", {});
    await bus.publish([{ topic: TOPICS.events, key: resourceId, value, id: `msg.${id}` }]);
    await bus.publish([{ topic: TOPICS.events, key: resourceId, value, id: `msg.other.${id}` }]);
    await eventually(() => expect(r.byEvent(id)).toHaveLength(1));
    await new Promise((res) => setTimeout(res, 500));
    expect(r.byEvent(id)).toHaveLength(1);
  });
});
