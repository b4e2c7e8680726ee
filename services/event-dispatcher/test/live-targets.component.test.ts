import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MemoryBus } from "@cardhold/bus";
import { TOPICS, type DecisionAnsweredMessage, type Mode, type WebhookChangedMessage } from "@cardhold/contracts";
import { newId, type Listening } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { INTERNAL, startDispatcher, type DispatcherHarness } from "./harness";

// Live-mode deliveries connect only to public addresses, checked on the address connected to (SSRF protection);
// the same webhook in test mode is delivered. src/delivery/target-guard.test.ts covers names that resolve to
// internal addresses with an injected resolver, DNS rebinding and keep-alive.

let h: DispatcherHarness;
let bus: MemoryBus;
let http: Listening;
let receiver: FakeReceiver;
let decisions: DecisionAnsweredMessage[];

beforeAll(async () => {
  h = await startDispatcher({ retrySchedule: { delaysMs: [200, 400], windowMs: 1_500 } });
  ({ bus, http, decisions } = h);
  receiver = new FakeReceiver();
  await receiver.start();
});

afterAll(async () => {
  await receiver?.stop();
  await h?.stop();
});

async function webhook(businessId: string, mode: Mode, url: string): Promise<void> {
  const data = {
    id: newId("webhook"),
    url,
    events: [],
    signingKey: `key-${Math.random()}`,
    status: "enabled" as const,
    isDefault: true,
  };
  const value: WebhookChangedMessage = {
    type: "webhook.changed",
    businessId,
    mode,
    occurredAt: new Date().toISOString(),
    data,
  };
  await bus.publish([{ topic: TOPICS.webhooks, key: data.id, value }]);
}

async function publishEvent(
  businessId: string,
  mode: Mode,
  kind: string,
  data: Record<string, unknown> = {},
): Promise<string> {
  const message = eventMessage(businessId, kind, data);
  await bus.publish([{ ...message, value: { ...message.value, mode } }]);
  return message.eventId;
}

async function getEvent(id: string, businessId: string, mode: Mode) {
  const res = await fetch(`${http.url}/events/${id}`, {
    headers: { "x-internal-token": INTERNAL, "x-business-id": businessId, "x-mode": mode },
  });
  return ((await res.json()) as any).data;
}

/** The same local receiver, reached by address and by name. */
const urls = () => [receiver.url, receiver.url.replace("127.0.0.1", "localhost")];

describe("live-mode delivery targets", () => {
  it("a live webhook on a loopback address or a name resolving to one gets nothing; each attempt names the address", async () => {
    for (const url of urls()) {
      const biz = newId("business");
      await webhook(biz, "live", url);
      const id = await publishEvent(biz, "live", "card.transaction.created");
      const event = await eventually(async () => {
        const found = await getEvent(id, biz, "live");
        expect(found.status).toBe("failed"); // retried as usual until the window closes, never delivered
        return found;
      }, 15_000);
      const attempts = event.deliveries[0].attempts as { httpStatus: number | null; error: string; url: string }[];
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      for (const attempt of attempts) {
        expect(attempt).toMatchObject({ url, httpStatus: null });
        expect(attempt.error).toMatch(/^target address (127\.0\.0\.1|::1) is not allowed in live mode \(loopback\)$/);
      }
      expect(receiver.byEvent(id)).toHaveLength(0);
    }
  });

  it("a live decision to a loopback target is answered connection-error without reaching it", async () => {
    const biz = newId("business");
    await webhook(biz, "live", urls()[1]!);
    const id = await publishEvent(biz, "live", "card.authorization.request", { type: "capture", status: "pending" });
    const answer = await eventually(() => {
      const found = decisions.find((d) => d.data.eventId === id);
      expect(found).toBeDefined();
      return found!;
    });
    expect(answer).toMatchObject({ mode: "live", data: { httpStatus: null, error: "connection-error" } });
    expect(receiver.byEvent(id)).toHaveLength(0);
  });

  it("the same webhook in test mode is delivered", async () => {
    for (const url of urls()) {
      const biz = newId("business");
      await webhook(biz, "test", url);
      const id = await publishEvent(biz, "test", "card.transaction.created");
      await eventually(async () => expect((await getEvent(id, biz, "test")).status).toBe("delivered"));
      expect(receiver.byEvent(id)).toHaveLength(1);
    }
  });
});
