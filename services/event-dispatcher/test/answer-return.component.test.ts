import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DECISION_ANSWERS_PATH, type DecisionAnsweredMessage } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { recordingServer, type RecordingServer } from "../../../test/support/recording-server";
import { freePort } from "../../../test/integration/support/service-processes";
import { announceWebhook } from "./calls";
import { INTERNAL, startDispatcher, type DispatcherHarness } from "./harness";

/** An engine's answer intake as the dispatcher sees it: records what is posted, answers with `status`. */
type FakeEngine = RecordingServer<DecisionAnsweredMessage>;
const fakeEngine = (status: number): Promise<FakeEngine> => recordingServer(status, '{"applied":true}');

let h: DispatcherHarness;
const receivers: FakeReceiver[] = [];
const engines: FakeEngine[] = [];

beforeAll(async () => {
  h = await startDispatcher();
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await Promise.all(engines.map((e) => e.close()));
  await h?.stop();
});

/** A business whose webhook approves every decision, and a decision event asked with `answerTo`. */
async function askDecision(answerTo: string) {
  const receiver = new FakeReceiver();
  receivers.push(receiver);
  await receiver.start();
  const businessId = newId("business");
  await announceWebhook(h.bus, businessId, receiver.url);
  receiver.answerWith({ status: 200, body: { action: "approve" } });
  const message = eventMessage(businessId, "card.authorization.request", { type: "capture", status: "pending" });
  Object.assign(message.value.data, { answerBy: new Date(Date.now() + 4_000).toISOString(), answerTo });
  await h.bus.publish([message]);
  return { eventId: message.eventId, resourceId: message.resourceId, businessId, receiver };
}

const publishedAnswer = (eventId: string) => h.decisions.find((d) => d.data.eventId === eventId);

const metrics = async () => (await fetch(`${h.http.url}/metrics`)).text();

describe("a receiver's answer to a decision event that names its engine (answerTo)", () => {
  it("is posted to that engine with the internal credential, and not published on decisions.v1", async () => {
    const engine = await fakeEngine(200);
    engines.push(engine);
    const { eventId, resourceId, businessId } = await askDecision(engine.url);
    await eventually(() => expect(engine.received).toHaveLength(1));
    const [post] = engine.received;
    expect(post!.path).toBe(DECISION_ANSWERS_PATH);
    expect(post!.headers["x-internal-token"]).toBe(INTERNAL);
    expect(post!.body).toMatchObject({
      type: "decision.answered",
      businessId,
      mode: "test",
      data: { eventId, resourceId, httpStatus: 200, body: { action: "approve" }, error: null },
    });
    // The attempt is recorded as for any decision; no outbox row means nothing on decisions.v1.
    await eventually(async () => {
      const { rows } = await h.pg.db.query("SELECT count(*)::int AS n FROM dispatcher.attempts WHERE event_id = $1", [
        eventId,
      ]);
      expect(rows[0]!.n).toBe(1);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(publishedAnswer(eventId)).toBeUndefined();
    expect(await metrics()).toMatch(/decision_answers_returned_total\{[^}]*outcome="taken"[^}]*\} [1-9]/);
  });

  it("goes on decisions.v1 when the engine refuses it", async () => {
    const engine = await fakeEngine(500);
    engines.push(engine);
    const { eventId } = await askDecision(engine.url);
    await eventually(() => expect(publishedAnswer(eventId)?.data.httpStatus).toBe(200));
    expect(engine.received).toHaveLength(1);
    expect(await metrics()).toMatch(/decision_answers_returned_total\{[^}]*outcome="fallback"[^}]*\} [1-9]/);
  });

  it("goes on decisions.v1 when nothing listens at that address", async () => {
    const { eventId } = await askDecision(`http://127.0.0.1:${await freePort()}`);
    await eventually(() => expect(publishedAnswer(eventId)?.data.body).toEqual({ action: "approve" }));
  });
});

describe("a decision event with a malformed answerTo", () => {
  it("is refused as malformed, as any bad events.v1 message is", async () => {
    const message = eventMessage(newId("business"), "card.authorization.request", { type: "check" });
    Object.assign(message.value.data, { answerTo: "file:///etc/passwd" });
    await h.bus.publish([message]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { rows } = await h.pg.db.query("SELECT count(*)::int AS n FROM dispatcher.events WHERE id = $1", [
      message.eventId,
    ]);
    expect(rows[0]!.n).toBe(0);
  });
});
