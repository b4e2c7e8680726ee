import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { SOLE_INSTANCE_POLLS } from "../src/delivery/delivery.worker";
import { announceWebhook } from "./calls";
import { startDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
const r = new FakeReceiver();

beforeAll(async () => {
  h = await startDispatcher({}, true);
  await r.start();
});
afterAll(async () => {
  await r.stop();
  await h?.stop();
});

describe("a dispatcher alone on its database (the all-in-one)", () => {
  it("still retries a failed notification once it falls due, within a poll of its time", async () => {
    const biz = newId("business");
    await announceWebhook(h.bus, biz, r.url);
    let calls = 0;
    r.answerWith(() => ({ status: ++calls === 1 ? 500 : 200 }));
    const message = eventMessage(biz, "card.authorization.closed", { status: "approved" });
    await h.bus.publish([message]);
    await eventually(() => expect(r.byEvent(message.eventId)).toHaveLength(2), 10_000);
    const [first, retry] = r.byEvent(message.eventId);
    // The harness's first retry falls due 200 ms (± jitter) after the failure; the poll runs once a second.
    expect(retry!.at - first!.at).toBeGreaterThanOrEqual(150);
    expect(retry!.at - first!.at).toBeLessThan(250 + SOLE_INSTANCE_POLLS.pollMs + 500);
  });

  it("sends a new event at once: it is claimed as it is stored, not found by the poll", async () => {
    const biz = newId("business");
    await announceWebhook(h.bus, biz, r.url);
    r.answerWith({ status: 200 });
    const sentAt = Date.now();
    const message = eventMessage(biz, "card.transaction.created", { amount: -100 });
    await h.bus.publish([message]);
    await eventually(() => expect(r.byEvent(message.eventId)).toHaveLength(1), 5_000);
    expect(r.byEvent(message.eventId)[0]!.at - sentAt).toBeLessThan(SOLE_INSTANCE_POLLS.pollMs / 2);
  });
});
