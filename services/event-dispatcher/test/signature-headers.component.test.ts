import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS, type WebhookChangedMessage } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver, type ReceivedRequest } from "../../../test/support/fake-receiver";
import { watchRecordedAnswers, type RecordedAnswer } from "../../webhook-registry/test/recorded-answers";
import { INTERNAL, startDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
let r: FakeReceiver;
let recordedFor: (key: string) => Promise<RecordedAnswer[]>;
beforeAll(async () => {
  h = await startDispatcher();
  r = new FakeReceiver();
  await r.start();
  recordedFor = await watchRecordedAnswers(h.pg.db, "dispatcher");
});
afterAll(async () => {
  await r?.stop();
  await h?.stop();
});

const SIGNING_KEY = "acme-signing-key-0123456789";
/** Hex HMAC-SHA512 of the raw body, as the notes give it (computed here, not with the dispatcher's own module). */
const hmacOf = (raw: Buffer) => createHmac("sha512", SIGNING_KEY).update(raw).digest("hex");

/** webhooks.v1 as the registry announces the business's default webhook; each call a later version. */
async function announceWebhook(businessId: string, id: string, signatureHeaders?: string[]) {
  const value: WebhookChangedMessage = {
    type: "webhook.changed",
    businessId,
    mode: "test",
    occurredAt: new Date().toISOString(),
    data: { id, url: r.url, events: [], signingKey: SIGNING_KEY, status: "enabled", isDefault: true, signatureHeaders },
  };
  await h.bus.publish([{ topic: TOPICS.webhooks, key: id, value }]);
  await new Promise((resolve) => setTimeout(resolve, 5)); // the next version gets a later occurredAt
}

async function delivered(businessId: string, kind: string, data: Record<string, unknown>): Promise<ReceivedRequest> {
  const message = eventMessage(businessId, kind, data);
  await h.bus.publish([message]);
  return eventually(() => {
    expect(r.byEvent(message.eventId)).toHaveLength(1);
    return r.byEvent(message.eventId)[0]!;
  });
}

describe("a webhook's extra signature headers", () => {
  it("carry exactly the Service-Signature value on notifications and decisions; an update removes them", async () => {
    const businessId = newId("business");
    const webhookId = newId("webhook");
    await announceWebhook(businessId, webhookId, ["Acme-Signature"]);

    const notification = await delivered(businessId, "card.transaction.created", { amount: -5_000 });
    expect(notification.headers["acme-signature"]).toBe(notification.headers["service-signature"]);
    expect(notification.headers["acme-signature"]).toBe(hmacOf(notification.raw));

    const decision = await delivered(businessId, "card.authorization.request", { type: "check", status: "pending" });
    expect(decision.headers["acme-signature"]).toBe(decision.headers["service-signature"]);
    expect(decision.headers["acme-signature"]).toBe(hmacOf(decision.raw));

    await announceWebhook(businessId, webhookId, ["X-Acme-Signature", "Acme-Sig"]);
    const renamed = await eventually(async () => {
      const got = await delivered(businessId, "card.transaction.created", {});
      expect(got.headers["x-acme-signature"]).toBeDefined();
      return got;
    });
    expect(renamed.headers["acme-signature"]).toBeUndefined();
    expect(renamed.headers["x-acme-signature"]).toBe(hmacOf(renamed.raw));
    expect(renamed.headers["acme-sig"]).toBe(hmacOf(renamed.raw));

    await announceWebhook(businessId, webhookId, []);
    const removed = await eventually(async () => {
      const got = await delivered(businessId, "card.transaction.created", {});
      expect(got.headers["x-acme-signature"]).toBeUndefined();
      return got;
    });
    expect(removed.headers["service-signature"]).toBe(hmacOf(removed.raw));
    expect(Object.keys(removed.headers).filter((name) => name.includes("signature"))).toEqual([
      "service-signature",
      "webhook-signature",
    ]);
  });

  it("are none for a message from before the field existed", async () => {
    const businessId = newId("business");
    await announceWebhook(businessId, newId("webhook"));
    const got = await delivered(businessId, "card.transaction.created", {});
    expect(Object.keys(got.headers).filter((name) => name.includes("signature"))).toEqual([
      "service-signature",
      "webhook-signature",
    ]);
  });
});

describe("POST /events/:id/retry with an Idempotency-Key", () => {
  const retry = async (businessId: string, eventId: string, key: string, body: unknown = {}) => {
    const res = await fetch(`${h.http.url}/events/${eventId}/retry`, {
      method: "POST",
      headers: {
        "x-internal-token": INTERNAL,
        "x-business-id": businessId,
        "x-mode": "test",
        "content-type": "application/json",
        "idempotency-key": key,
      },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { code: string; data: { id: string; deliveries: Array<{ status: string }> } };
    return { status: res.status, body: answer, replayed: res.headers.get("idempotent-replayed") };
  };

  it("records its answer in the retry's transaction and replays it without sending again", async () => {
    const businessId = newId("business");
    await announceWebhook(businessId, newId("webhook"), ["Acme-Signature"]);
    const message = eventMessage(businessId, "card.transaction.created", {});
    await h.bus.publish([message]);
    await eventually(() => expect(r.byEvent(message.eventId)).toHaveLength(1));

    const key = newId("request");
    const first = await retry(businessId, message.eventId, key);
    expect(first).toMatchObject({
      status: 200,
      replayed: null,
      body: { code: "success", data: { id: message.eventId } },
    });
    expect(first.body.data.deliveries[0]).toMatchObject({ status: "pending" });
    expect(await recordedFor(key)).toEqual([expect.objectContaining({ status: 200 })]);
    await eventually(() => expect(r.byEvent(message.eventId)).toHaveLength(2));
    const resent = r.byEvent(message.eventId)[1]!;
    expect(resent.headers["acme-signature"]).toBe(hmacOf(resent.raw));

    expect(await retry(businessId, message.eventId, key)).toEqual({ ...first, replayed: "true" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.byEvent(message.eventId)).toHaveLength(2);

    const refused = newId("request");
    expect((await retry(businessId, message.eventId, refused, { unexpected: 1 })).status).toBe(400);
    expect((await retry(newId("business"), message.eventId, newId("request"))).status).toBe(404);
    expect(await recordedFor(refused)).toEqual([]);
  });
});
