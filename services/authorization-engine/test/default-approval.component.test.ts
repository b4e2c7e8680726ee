import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { balanceOf, call, issueCard, newBusiness, startEngine, type EngineHarness } from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  // Some requests here play ones that queued for seconds in front of the engine (x-received-at in the past), to test
  // the decision window: load shedding, which would refuse them, is tested in admission.component.test.ts.
  h = await startEngine({ admission: { maxQueuedMs: 10_000 } });
});
afterAll(async () => {
  await h?.stop();
});

describe("a request that reaches the engine too late to ask, on a card whose timeout default approves", () => {
  it("is captured at once by the default (platform-overloaded): the hold moves to the network's side", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000, timeoutDefault: "approve" });
    const path = `/simulation/cards/${card.cardId}/request-authorization/capture`;
    const started = Date.now();
    const reply = await call(
      h,
      as,
      "POST",
      path,
      { amount: 1_000, channel: "online" },
      { "x-received-at": String(Date.now() - 3_900) },
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({
      status: "approved",
      decisionType: "system-response",
      statusReason: "platform-overloaded",
    });
    const id = reply.body.data.id as string;
    expect(h.events.some((e) => e.event === "card.authorization.request" && (e.data as { id: string }).id === id)).toBe(
      false,
    );
    await eventually(() =>
      expect(
        h.events.some(
          (e) => e.event === "card.transaction.created" && (e.data as { authorization: string }).authorization === id,
        ),
      ).toBe(true),
    );
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 9_000, ledger: 9_000, held: 0 });
  });
});
