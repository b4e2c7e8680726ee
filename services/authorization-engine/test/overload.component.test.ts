import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { balanceOf, call, issueCard, newBusiness, nextEvent, startEngine, type EngineHarness } from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine({ maxRequestsInProgress: 1 });
});
afterAll(async () => {
  await h?.stop();
});

describe("an engine holding more network requests than it may ask about", () => {
  it("decides the excess by the timeout default at once (platform-overloaded) and asks about the rest", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000, timeoutDefault: "approve" });
    const capture = () => call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/capture`, { amount: 1_000, channel: "online" });
    // Nobody answers: the first is asked and waits; the second arrives with two in progress (more than 1).
    const waiting = [capture()];
    await nextEvent(h, new Set(), (e) => e.event === "card.authorization.request");
    const started = Date.now();
    const second = await capture();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.data).toMatchObject({ status: "approved", decisionType: "system-response", statusReason: "platform-overloaded" });
    const id = second.body.data.id as string;
    expect(h.events.some((e) => e.event === "card.authorization.request" && (e.data as { id: string }).id === id)).toBe(false);
    await eventually(() => expect(h.events.some((e) => e.event === "card.transaction.created" && (e.data as { authorization: string }).authorization === id)).toBe(true));
    expect(await (await fetch(`${h.url}/metrics`)).text()).toMatch(/^authorizations_not_asked_total\{[^}]*\} 1$/m);
    const [first] = await Promise.all(waiting);
    expect(first!.body.data).toMatchObject({ statusReason: "timeout-error" }); // asked; nobody answered in 4 s
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ held: 0 });
  }, 15_000);
});
