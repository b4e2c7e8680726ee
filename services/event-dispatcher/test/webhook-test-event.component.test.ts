import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookChangedMessage } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { sign } from "../src/domain/signature";
import { announceWebhook, callDispatcher, type Hook } from "./calls";
import { startDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
const receivers: FakeReceiver[] = [];
beforeAll(async () => {
  h = await startDispatcher();
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

/** A webhook announced on webhooks.v1, once the dispatcher has it in its routing table. */
async function knownWebhook(businessId: string, url: string, change: Partial<WebhookChangedMessage["data"]> = {}) {
  const hook = await announceWebhook(h.bus, businessId, url, change);
  await eventually(async () => {
    const { rowCount } = await h.pg.db.query("SELECT 1 FROM dispatcher.webhooks WHERE id = $1", [hook.id]);
    expect(rowCount).toBe(1);
  });
  return hook;
}

const sendTest = (hook: Pick<Hook, "id" | "businessId">, body: unknown = {}, headers?: Record<string, string>) =>
  callDispatcher(h.http, "POST", `/webhooks/${hook.id}/test`, hook.businessId, body, { headers });
const eventOf = async (businessId: string, id: string) =>
  (await callDispatcher(h.http, "GET", `/events/${id}`, businessId)).body.data;

describe("POST /webhooks/:id/test", () => {
  it("sends a signed webhook.test event to that webhook alone, through the delivery worker: 202 with the event", async () => {
    const biz = newId("business");
    const defaultReceiver = await receiver();
    const target = await receiver();
    await knownWebhook(biz, defaultReceiver.url);
    // Not enabled yet, and naming other kinds: the test still goes to it, and only to it.
    const hook = await knownWebhook(biz, target.url, {
      isDefault: false,
      status: "created",
      events: ["card.authorization.closed"],
    });
    const reply = await sendTest(hook);
    expect(reply.status).toBe(202);
    const event = reply.body.data;
    expect(event).toMatchObject({
      object: "event",
      event: "webhook.test",
      resource: hook.id,
      data: { webhookId: hook.id, message: expect.any(String) },
      deliveries: [{ webhook: hook.id, status: "pending", attempts: [] }],
    });
    expect(event.id).toMatch(/^evt\./);
    await eventually(() => expect(target.byEvent(event.id)).toHaveLength(1));
    const got = target.byEvent(event.id)[0]!;
    expect(got.headers["service-signature"]).toBe(sign(got.raw, hook.signingKey));
    expect(got.headers["webhook-id"]).toBe(event.id);
    expect(got.json).toEqual({
      event: "webhook.test",
      data: { webhookId: hook.id, message: event.data.message },
      metadata: { sentAt: expect.any(String), event: event.id },
      mode: "test",
    });
    const delivered = await eventually(async () => {
      const stored = await eventOf(biz, event.id);
      expect(stored.status).toBe("delivered");
      return stored;
    });
    expect(delivered.deliveries).toEqual([
      expect.objectContaining({
        webhook: hook.id,
        status: "delivered",
        attempts: [expect.objectContaining({ attempt: 1, url: target.url, httpStatus: 200 })],
      }),
    ]);
    expect(defaultReceiver.received).toEqual([]);
  });

  it("delivers to a disabled webhook too, and retries until HTTP 200 as any notification", async () => {
    const biz = newId("business");
    const target = await receiver();
    const hook = await knownWebhook(biz, target.url, { isDefault: false, status: "disabled", events: ["x"] });
    let calls = 0;
    target.answerWith(() => (++calls === 1 ? { status: 500 } : { status: 200 }));
    const { body } = await sendTest(hook);
    const stored = await eventually(async () => {
      const found = await eventOf(biz, body.data.id);
      expect(found.status).toBe("delivered");
      return found;
    }, 10_000);
    expect(stored.deliveries[0].attempts.map((a: { httpStatus: number }) => a.httpStatus)).toEqual([500, 200]);
    expect(target.byEvent(body.data.id)).toHaveLength(2);
  });

  it("404 for an unknown webhook and for another business's (or mode's); 400 for a body that is not {}", async () => {
    const biz = newId("business");
    const target = await receiver();
    const hook = await knownWebhook(biz, target.url);
    expect((await sendTest({ id: newId("webhook"), businessId: biz })).status).toBe(404);
    expect((await sendTest({ id: hook.id, businessId: newId("business") })).status).toBe(404);
    const live = await callDispatcher(h.http, "POST", `/webhooks/${hook.id}/test`, biz, {}, { mode: "live" });
    expect(live.status).toBe(404);
    const bad = await sendTest(hook, { message: "hi" });
    expect(bad.status).toBe(400);
    expect((await callDispatcher(h.http, "GET", `/events?filter=resource:${hook.id}`, biz)).body.data).toEqual([]);
    expect(target.received).toEqual([]);
  });

  it("an Idempotency-Key repeat answers the first test event again and sends nothing more", async () => {
    const biz = newId("business");
    const target = await receiver();
    const hook = await knownWebhook(biz, target.url);
    const key = { "idempotency-key": newId("request") };
    const first = await sendTest(hook, {}, key);
    const again = await sendTest(hook, {}, key);
    expect(again.status).toBe(202);
    expect(again.body.data.id).toBe(first.body.data.id);
    await eventually(() => expect(target.byEvent(first.body.data.id)).toHaveLength(1));
    const events = await callDispatcher(h.http, "GET", `/events?filter=resource:${hook.id}`, biz);
    expect(events.body.data).toHaveLength(1);
  });
});
