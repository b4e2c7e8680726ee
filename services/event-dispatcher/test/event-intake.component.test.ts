import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENTS_INTAKE_PATH } from "@cardhold/contracts";
import { newId } from "@cardhold/platform";
import { eventually } from "../../../test/support/eventually";
import { eventMessage } from "../../../test/support/event-message";
import { FakeReceiver } from "../../../test/support/fake-receiver";
import { announceWebhook } from "./calls";
import { INTERNAL, startDispatcher, type DispatcherHarness } from "./harness";

let h: DispatcherHarness;
const receiver = new FakeReceiver();
let businessId: string;

beforeAll(async () => {
  h = await startDispatcher();
  await receiver.start();
  businessId = newId("business");
  await announceWebhook(h.bus, businessId, receiver.url);
});

afterAll(async () => {
  await receiver.stop();
  await h?.stop();
});

/** Posts a body as an engine's relay would (the internal credential unless `token` says otherwise). */
const post = (body: unknown, token = INTERNAL) =>
  fetch(`${h.http.url}${EVENTS_INTAKE_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-internal-token": token },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const posted = (m: ReturnType<typeof eventMessage>) => ({ id: m.id, key: m.key, value: m.value, headers: {} });

describe("events posted straight to the dispatcher (an engine's direct lane)", () => {
  it("are stored once answered 200, delivered in order, and a repeat (from events.v1) is not delivered again", async () => {
    const resourceId = newId("authorization");
    const first = eventMessage(businessId, "card.authorization.closed", { status: "approved" }, resourceId);
    const second = eventMessage(businessId, "card.transaction.created", { amount: 100 }, resourceId);
    const answer = await post([posted(first), posted(second)]);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ stored: 2 });
    const { rows } = await h.pg.db.query<{ id: string }>(
      "SELECT id FROM dispatcher.events WHERE resource_id = $1 ORDER BY created_at, id",
      [resourceId],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([first.eventId, second.eventId].sort());
    await eventually(() => expect(receiver.byEvent(second.eventId)).toHaveLength(1));
    const order = receiver.received
      .map((r) => r.json?.metadata?.event)
      .filter((e) => e === first.eventId || e === second.eventId);
    expect(order).toEqual([first.eventId, second.eventId]);

    await h.bus.publish([first]);
    expect((await post([posted(second)])).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.byEvent(first.eventId)).toHaveLength(1);
    expect(receiver.byEvent(second.eventId)).toHaveLength(1);
  });

  it("refuses a malformed body with 400 naming what is wrong, and stores nothing of it", async () => {
    const good = eventMessage(businessId, "card.authorization.closed");
    const bad = {
      ...posted(eventMessage(businessId, "card.authorization.closed")),
      value: { type: "event.published" },
    };
    const answer = await post([posted(good), bad]);
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { code: string; message: string };
    expect(body.code).toBe("invalid-request");
    expect(body.message).toContain("posted events' values");
    expect((await post([])).status).toBe(400);
    expect((await post("not json")).status).toBe(400);
    const { rows } = await h.pg.db.query("SELECT 1 FROM dispatcher.events WHERE id = $1", [good.eventId]);
    expect(rows).toHaveLength(0);
  });

  it("needs the internal credential", async () => {
    const answer = await post(
      [posted(eventMessage(businessId, "card.authorization.closed"))],
      "wrong-token-wrong-token",
    );
    expect(answer.status).toBe(401);
  });
});
