import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MemoryBus } from "@cardhold/bus";
import { TOPICS, type Mode, type WebhookChangedMessage } from "@cardhold/contracts";
import { newId, type Listening } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { sign, verify } from "../src/domain/signature";
import { INTERNAL, startDispatcher, type DispatcherHarness } from "./harness";

// Test and live: the envelope says its mode, and each mode's events are signed with that mode's webhook's key. Live
// deliveries go to a loopback receiver here, so this dispatcher allows private targets (live-targets.component.test.ts
// covers the refusal).

let h: DispatcherHarness;
let bus: MemoryBus;
let http: Listening;
let receiver: FakeReceiver;

beforeAll(async () => {
  h = await startDispatcher({ allowPrivateTargets: true });
  ({ bus, http } = h);
  receiver = new FakeReceiver();
  await receiver.start();
});

afterAll(async () => {
  await receiver?.stop();
  await h?.stop();
});

/** A webhooks.v1 change: a business's default webhook in one mode, with its own key. */
function change(
  businessId: string,
  mode: Mode,
  id: string,
  signingKey: string,
  occurredAt = new Date(),
): WebhookChangedMessage {
  return {
    type: "webhook.changed",
    businessId,
    mode,
    occurredAt: occurredAt.toISOString(),
    data: { id, url: receiver.url, events: [], signingKey, status: "enabled", isDefault: true },
  };
}

async function defaultWebhook(businessId: string, mode: Mode) {
  const hook = { id: newId("webhook"), signingKey: `${mode}-key-${Math.random()}` };
  await bus.publish([
    { topic: TOPICS.webhooks, key: hook.id, value: change(businessId, mode, hook.id, hook.signingKey) },
  ]);
  return hook;
}

async function publishEvent(businessId: string, mode: Mode) {
  const message = eventMessage(businessId, "card.transaction.created", { amount: -100 });
  await bus.publish([{ ...message, value: { ...message.value, mode } }]);
  return message;
}

describe("the mode of an event", () => {
  it("is the envelope's last field, and the event is signed with its own mode's webhook key only", async () => {
    // One receiver URL for both modes, as a business's two default webhooks start out.
    const businessId = newId("business");
    const hooks = { test: await defaultWebhook(businessId, "test"), live: await defaultWebhook(businessId, "live") };
    const events = { test: await publishEvent(businessId, "test"), live: await publishEvent(businessId, "live") };
    await eventually(() =>
      expect([receiver.byEvent(events.test.eventId).length, receiver.byEvent(events.live.eventId).length]).toEqual([
        1, 1,
      ]),
    );

    for (const [mode, other] of [
      ["test", "live"],
      ["live", "test"],
    ] as const) {
      const got = receiver.byEvent(events[mode].eventId)[0]!;
      // Every field of the producer's envelope, in its order, then the mode.
      expect(Object.keys(got.json)).toEqual(["event", "data", "metadata", "mode"]);
      expect(got.json).toEqual({ ...events[mode].value.data.envelope, mode });
      const signature = String(got.headers["service-signature"]);
      expect(verify(got.raw, hooks[mode].signingKey, signature), `${mode} event under its own key`).toBe(true);
      expect(verify(got.raw, hooks[other].signingKey, signature), `${mode} event under the ${other} key`).toBe(false);
    }
  });

  it("what GET /events/:id shows is what was sent", async () => {
    const businessId = newId("business");
    await defaultWebhook(businessId, "live");
    const event = await publishEvent(businessId, "live");
    await eventually(() => expect(receiver.byEvent(event.eventId)).toHaveLength(1));
    const res = await fetch(`${http.url}/events/${event.eventId}`, {
      headers: { "x-internal-token": INTERNAL, "x-business-id": businessId, "x-mode": "live" },
    });
    const shown = (await res.json()) as { data: { payload: unknown } };
    expect(JSON.stringify(shown.data.payload)).toBe(receiver.byEvent(event.eventId)[0]!.raw.toString());
  });
});

describe("a re-keyed webhook", () => {
  it("signs with the new key once a newer webhooks.v1 change (a roll, migration 003's republish) arrives; an older one does not undo it", async () => {
    const businessId = newId("business");
    const hook = await defaultWebhook(businessId, "test");
    const later = new Date(Date.now() + 1_000);
    const earlier = new Date(Date.now() - 60_000);
    await bus.publish([
      {
        topic: TOPICS.webhooks,
        key: hook.id,
        value: change(businessId, "test", hook.id, "re-keyed-signing-key-0123456789", later),
      },
    ]);
    await bus.publish([
      { topic: TOPICS.webhooks, key: hook.id, value: change(businessId, "test", hook.id, hook.signingKey, earlier) },
    ]);
    const event = await publishEvent(businessId, "test");
    await eventually(() => expect(receiver.byEvent(event.eventId)).toHaveLength(1));
    const got = receiver.byEvent(event.eventId)[0]!;
    expect(got.headers["service-signature"]).toBe(sign(got.raw, "re-keyed-signing-key-0123456789"));
  });
});
