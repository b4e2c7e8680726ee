import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import {
  announceCustomer,
  answerDecision,
  announceWebhook,
  balanceOf,
  call,
  eventsOf,
  issueCard,
  newBusiness,
  nextEvent,
  startEngine,
  type Business,
  type EngineHarness,
  type Envelope,
  type IssuedCard,
  type Reply,
} from "./harness";

let h: EngineHarness;
beforeAll(async () => {
  // Some requests here play ones that queued for seconds in front of the engine (x-received-at in the past), to test
  // the decision window: load shedding, which would refuse them, is tested in admission.component.test.ts.
  h = await startEngine({ admission: { maxQueuedMs: 10_000 } });
});
afterAll(async () => {
  await h?.stop();
});

const simulate = (as: Business, card: string, kind: string, body: Record<string, unknown>) =>
  call(h, as, "POST", `/simulation/cards/${card}/request-authorization/${kind}`, body);

/** Decision events the tests already answered (or looked at). */
const seen = new Set<string>();

/** Sends a simulation request, answers the decision event it raises with `answer`, and returns the HTTP reply. */
async function decide(
  as: Business,
  card: IssuedCard,
  kind: string,
  body: Record<string, unknown>,
  answer: Parameters<typeof answerDecision>[3],
): Promise<Reply> {
  const reply = simulate(as, card.cardId, kind, body);
  const question = await nextEvent(
    h,
    seen,
    (e) =>
      (e.data as { card?: string }).card === card.cardId &&
      (e.event === "card.authorization.request" ||
        (e.event === "card.authorization.update" && e.data.status === "pending")),
  );
  await answerDecision(h, as, question, answer);
  return reply;
}

const kinds = (id: string) =>
  eventsOf(h, id).map((e) => `${e.event}${e.data.status ? `:${String(e.data.status)}` : ""}`);
/** The events of an authorization once the relay has published all `count` of them. */
const kindsOf = (id: string, count: number) =>
  eventually(() => {
    const list = kinds(id);
    expect(list.length).toBeGreaterThanOrEqual(count);
    return list;
  }, 5_000);
const approve = { body: { action: "approve" } };

describe("the transition table through the simulation endpoints", () => {
  it("card inactive → the request is dropped: 422, no authorization, no event", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { activate: false });
    const before = h.events.length;
    const reply = await simulate(as, card.cardId, "capture", { amount: 1_000, channel: "online" });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({
      code: "authorization-dropped",
      message: expect.stringContaining("card is inactive"),
    });
    expect((await call(h, as, "GET", "/card-authorizations")).body.data).toEqual([]);
    expect(h.events.length).toBe(before);
  });

  it("card blocked → dropped too; unblocked it authorizes again", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    await call(h, as, "POST", `/cards/${card.cardId}/block`, {});
    expect((await simulate(as, card.cardId, "check", { channel: "pos" })).status).toBe(422);
    await call(h, as, "POST", `/cards/${card.cardId}/unblock`, {});
    const reply = await decide(
      as,
      card,
      "check",
      { channel: "pos" },
      { body: { action: "approve", cardBalance: 10, cardHolderName: "Ada Obi" } },
    );
    expect(reply.body.data.status).toBe("approved");
  });

  it("a failed pre-check (funds) → declined by the service, closed event, nothing held", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 5_000 });
    const reply = await simulate(as, card.cardId, "capture", { amount: 5_000, fees: 1, channel: "online" });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      declineReason: "insufficient-funds",
      reserved: false,
    });
    expect(await kindsOf(reply.body.data.id, 1)).toEqual(["card.authorization.closed:declined"]);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 5_000, held: 0 });
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>, string]>([
    ["channel", { blockedChannels: ["online"] }, {}, "channel-not-allowed"],
    ["MCC range", { blockedMcc: "5540-5549" }, { mcc: "5541" }, "mcc-not-allowed"],
    ["category", { allowedCategories: ["groceries"] }, { mcc: "5541" }, "category-not-allowed"],
    [
      "merchant",
      { blockedMerchants: ["mch.1111111111111111A"] },
      { merchant: "mch.1111111111111111A" },
      "merchant-not-allowed",
    ],
    ["daily limit", { spendingLimits: [{ amount: 1_500, interval: "daily" }] }, {}, "spending-limit-exceeded"],
  ])("a spending control (%s) → declined spending-control", async (_name, controls, request, detail) => {
    const as = newBusiness();
    const card = await issueCard(h, as, { controls });
    const reply = await simulate(as, card.cardId, "capture", {
      amount: 1_000,
      fees: 600,
      channel: "online",
      ...request,
    });
    expect(reply.body.data).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      declineReason: "spending-control",
      statusReason: detail,
    });
  });

  it("the daily limit counts what the card already spent today", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { controls: { spendingLimits: [{ amount: 3_000, interval: "daily" }] } });
    expect((await decide(as, card, "capture", { amount: 2_000, channel: "online" }, approve)).body.data.status).toBe(
      "approved",
    );
    expect((await simulate(as, card.cardId, "capture", { amount: 1_001, channel: "online" })).body.data).toMatchObject({
      status: "declined",
      statusReason: "spending-limit-exceeded",
    });
    expect((await decide(as, card, "capture", { amount: 1_000, channel: "online" }, approve)).body.data.status).toBe(
      "approved",
    );
  });

  it("checks pass → funds held and card.authorization.request (capture) sent; approve → approved, debit, closed and a negative transaction", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 100_000, transactionFee: 100 });
    const reply = simulate(as, card.cardId, "capture", {
      amount: 50_000,
      fees: 6_500,
      channel: "online",
      mcc: "5411",
      merchantDescriptor: "MATRIX ENERGY",
    });
    const request = await nextEvent(
      h,
      seen,
      (e) => e.event === "card.authorization.request" && e.data.card === card.cardId,
    );
    expect(request.data).toMatchObject({
      object: "card.authorization",
      type: "capture",
      status: "pending",
      amount: 50_000,
      fees: 6_600,
      reserved: true,
      currency: "NGN",
      channel: "online",
    });
    expect(request.data.networkData).toMatchObject({ network: "verve", cardAcceptorNameLocation: "MATRIX ENERGY" });
    expect(await balanceOf(h, as, card.fundingAccount)).toEqual(
      expect.objectContaining({ available: 43_400, ledger: 100_000, held: 56_600 }),
    );
    await answerDecision(h, as, request, { body: { action: "approve", metadata: { walletRef: "w-1" } } });
    const { body } = await reply;
    expect(body.data).toMatchObject({
      status: "approved",
      decisionType: "direct-response",
      reserved: false,
      metadata: { walletRef: "w-1" },
    });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 43_400, ledger: 43_400, held: 0 });
    expect(await kindsOf(body.data.id, 3)).toEqual([
      "card.authorization.request:pending",
      "card.authorization.closed:approved",
      "card.transaction.created",
    ]);
    await kindsOf(body.data.id, 3);
    const transaction = eventsOf(h, body.data.id).at(-1)!.data;
    expect(transaction).toMatchObject({
      object: "card.transaction",
      authorization: body.data.id,
      card: card.cardId,
      customer: card.customerId,
      type: "capture",
      amount: -50_000,
      fees: -6_600,
    });
  });

  it("receiver declines → declined, hold released, the code stored, closed event", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const reply = await decide(
      as,
      card,
      "capture",
      { amount: 4_000, channel: "pos" },
      { body: { action: "decline", code: "insufficient-funds" } },
    );
    expect(reply.body.data).toMatchObject({
      status: "declined",
      decisionType: "direct-response",
      declineReason: "insufficient-funds",
      reserved: false,
    });
    expect(await kindsOf(reply.body.data.id, 2)).toEqual([
      "card.authorization.request:pending",
      "card.authorization.closed:declined",
    ]);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000, held: 0 });
  });

  it("amount change on an approved capture → pending, card.authorization.update with the new amount; approve → approved at it", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const capture = await decide(as, card, "capture", { amount: 2_000, fees: 100, channel: "online" }, approve);
    const reply = simulate(as, card.cardId, "update-capture", {
      authorization: capture.body.data.id,
      updateAmount: 3_000,
      updateFees: 150,
      channel: "online",
    });
    const update = await nextEvent(
      h,
      seen,
      (e) => e.event === "card.authorization.update" && e.data.id === capture.body.data.id,
    );
    expect(update.data).toMatchObject({ status: "pending", amount: 3_000, fees: 150 });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 6_850, held: 1_050 });
    await answerDecision(h, as, update, approve);
    expect((await reply).body.data).toMatchObject({
      status: "approved",
      amount: 3_000,
      fees: 150,
      decisionType: "direct-response",
    });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 6_850, ledger: 6_850, held: 0 });
    await kindsOf(capture.body.data.id, 6);
    expect(eventsOf(h, capture.body.data.id).at(-1)!.data).toMatchObject({
      type: "adjustment",
      amount: -1_000,
      fees: -50,
    });
  });

  it("amount change declined by the receiver → declined with the code; the held increase released, the capture kept", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const capture = await decide(as, card, "capture", { amount: 2_000, channel: "online" }, approve);
    const reply = await decide(
      as,
      card,
      "update-capture",
      { authorization: capture.body.data.id, updateAmount: 5_000, channel: "online" },
      { body: { action: "decline", code: "insufficient-funds" } },
    );
    expect(reply.body.data).toMatchObject({ status: "declined", declineReason: "insufficient-funds", amount: 2_000 });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 8_000, ledger: 8_000, held: 0 });
  });

  it("amount lowered and declined by the receiver → the lower amount stands all the same, the difference refunded", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const capture = await decide(as, card, "capture", { amount: 2_000, channel: "online" }, approve);
    const reply = await decide(
      as,
      card,
      "update-capture",
      { authorization: capture.body.data.id, updateAmount: 1_500, channel: "online" },
      { body: { action: "decline", code: "invalid-transaction" } },
    );
    expect(reply.body.data).toMatchObject({
      status: "approved",
      amount: 1_500,
      decisionType: "system-response",
      statusReason: "decrease-not-refusable",
    });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 8_500, ledger: 8_500, held: 0 });
    await kindsOf(capture.body.data.id, 6);
    expect(eventsOf(h, capture.body.data.id).at(-1)!.data).toMatchObject({ type: "adjustment", amount: 500 });
  });

  it("amount change beyond the funding balance → declined by the service without asking", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 3_000 });
    const capture = await decide(as, card, "capture", { amount: 2_000, channel: "online" }, approve);
    const reply = await simulate(as, card.cardId, "update-capture", {
      authorization: capture.body.data.id,
      updateAmount: 3_001,
      channel: "online",
    });
    expect(reply.body.data).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      declineReason: "insufficient-funds",
      amount: 2_000,
    });
    expect((await kindsOf(capture.body.data.id, 4)).at(-1)).toBe("card.authorization.closed:declined");
  });

  it("reversal → reversed, the amount credited to the settlement account, card.authorization.update (reversed)", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { fundingSourceType: "card-account", funds: 10_000 });
    const capture = await decide(as, card, "capture", { amount: 4_000, fees: 50, channel: "online" }, approve);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 5_950 });
    const reply = await simulate(as, card.cardId, "reverse-capture", {
      authorization: capture.body.data.id,
      channel: "online",
    });
    expect(reply.body.data).toMatchObject({ status: "reversed", amount: 4_000 });
    expect(await balanceOf(h, as, card.settlementAccount)).toMatchObject({ available: 4_050 });
    expect((await kindsOf(capture.body.data.id, 5)).slice(-2)).toEqual([
      "card.authorization.update:reversed",
      "card.transaction.created",
    ]);
    expect(eventsOf(h, capture.body.data.id).at(-1)!.data).toMatchObject({ type: "reversal", amount: 4_000, fees: 50 });
    expect(
      (await simulate(as, card.cardId, "reverse-capture", { authorization: capture.body.data.id, channel: "online" }))
        .status,
    ).toBe(422);
  });

  it("check → card.authorization.request (check); approve needs an integer cardBalance and a cardHolderName", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as);
    const good = await decide(
      as,
      card,
      "check",
      { channel: "atm" },
      { body: { action: "approve", cardBalance: 120_000, cardHolderName: "Ada Obi" } },
    );
    expect(good.body.data).toMatchObject({
      type: "check",
      status: "approved",
      cardBalance: 120_000,
      cardHolderName: "Ada Obi",
      amount: 0,
    });
    expect(await kindsOf(good.body.data.id, 1)).toEqual(["card.authorization.request:pending"]);
    const bad = await decide(as, card, "check", { channel: "atm" }, { body: { action: "approve", cardBalance: 12.5 } });
    expect(bad.body.data).toMatchObject({ status: "declined", statusReason: "invalid-response" });
  });
});

describe("no usable answer: the timeout default", () => {
  const unusable: Array<[string, Parameters<typeof answerDecision>[3], string]> = [
    ["no answer in time", { error: "timeout" }, "timeout-error"],
    ["a connection error", { error: "connection-error" }, "connection-error"],
    ["an HTTP 500", { httpStatus: 500, body: { error: "boom" } }, "webhook-error"],
    ["a body that is no authorization response", { body: { approve: true } }, "invalid-response"],
  ];

  it.each(unusable)("%s → declined by default (system-response, %s)", async (_name, answer, reason) => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const reply = await decide(as, card, "capture", { amount: 1_000, channel: "online" }, answer);
    expect(reply.body.data).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      statusReason: reason,
    });
    expect(reply.body.data.declineReason).toBeUndefined();
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000, held: 0 });
  });

  it("the program's timeoutDefault wins over the webhook's", async () => {
    const as = newBusiness();
    await announceWebhook(h, as, { isDefault: true, timeoutDefault: "decline" });
    const card = await issueCard(h, as, { timeoutDefault: "approve" });
    const reply = await decide(as, card, "capture", { amount: 1_000, channel: "online" }, { error: "timeout" });
    expect(reply.body.data).toMatchObject({
      status: "approved",
      decisionType: "system-response",
      statusReason: "timeout-error",
    });
  });

  it("without one on the program, the webhook routing card.authorization.request decides", async () => {
    const as = newBusiness();
    await announceWebhook(h, as, { isDefault: true, timeoutDefault: "decline" });
    await announceWebhook(h, as, {
      isDefault: false,
      status: "enabled",
      events: ["card.authorization.request"],
      timeoutDefault: "approve",
    });
    const card = await issueCard(h, as);
    const reply = await decide(as, card, "capture", { amount: 1_000, channel: "online" }, { error: "timeout" });
    expect(reply.body.data).toMatchObject({ status: "approved", statusReason: "timeout-error" });
  });

  it("nobody answers at all → the deadline sweeper applies the default at the deadline (4 s), not a poll later", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const started = Date.now();
    const reply = await simulate(as, card.cardId, "capture", { amount: 1_000, channel: "online" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    expect(Date.now() - started).toBeLessThan(4_600); // well before the old 1 s grace; the bench measures the bound
    const request = h.events.find(
      (e) => e.event === "card.authorization.request" && (e.data as { id: string }).id === reply.body.data.id,
    )!;
    const answerBy = Date.parse(h.answerBy.get(request.metadata.event)!);
    expect(answerBy - Date.parse(request.metadata.sentAt)).toBeGreaterThanOrEqual(3_990); // the 4-second window travels with it
    expect(reply.body.data).toMatchObject({ status: "declined", statusReason: "timeout-error" });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000, held: 0 });
  });

  it("the window runs from when the request reached the platform, not from when the engine got to it", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const arrivedAt = Date.now() - 3_000; // it queued for 3 s in front of the engine
    const path = `/simulation/cards/${card.cardId}/request-authorization/capture`;
    const started = Date.now();
    const reply = await call(
      h,
      as,
      "POST",
      path,
      { amount: 1_000, channel: "online" },
      { "x-received-at": String(arrivedAt) },
    );
    const request = h.events.find(
      (e) => e.event === "card.authorization.request" && (e.data as { id: string }).id === reply.body.data.id,
    )!;
    expect(Date.parse(h.answerBy.get(request.metadata.event)!)).toBe(arrivedAt + 4_000);
    expect(reply.body.data).toMatchObject({ status: "declined", statusReason: "timeout-error" });
    expect(Date.now() - started).toBeLessThan(2_000); // decided at arrival + 4 s, about 1 s after it was created
  });

  it("an amount change's window also runs from when the network's request reached the platform", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const capture = await decide(as, card, "capture", { amount: 2_000, channel: "online" }, approve);
    const arrivedAt = Date.now() - 3_000;
    const path = `/simulation/cards/${card.cardId}/request-authorization/update-capture`;
    const started = Date.now();
    const body = { authorization: capture.body.data.id, updateAmount: 3_000, channel: "online" };
    const reply = await call(h, as, "POST", path, body, { "x-received-at": String(arrivedAt) });
    const update = h.events.findLast(
      (e) => e.event === "card.authorization.update" && (e.data as { id: string }).id === capture.body.data.id,
    )!;
    expect(Date.parse(h.answerBy.get(update.metadata.event)!)).toBe(arrivedAt + 4_000);
    expect(reply.body.data).toMatchObject({ status: "declined", statusReason: "timeout-error", amount: 2_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a request that reaches the engine too late to ask the receiver is decided by the default at once", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
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
    expect(reply.body.data).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      statusReason: "platform-overloaded",
    });
    const id = reply.body.data.id as string;
    await eventually(() =>
      expect(
        h.events.some((e) => e.event === "card.authorization.closed" && (e.data as { id: string }).id === id),
      ).toBe(true),
    );
    expect(h.events.some((e) => e.event === "card.authorization.request" && (e.data as { id: string }).id === id)).toBe(
      false,
    );
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000, held: 0 });
  });

  it("the deadline survives a restart: an engine stopped during the wait ends it with the default when it is back", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000, timeoutDefault: "approve" });
    void simulate(as, card.cardId, "capture", { amount: 1_000, channel: "online" }).catch(() => undefined);
    const request = await nextEvent(
      h,
      seen,
      (e) => e.event === "card.authorization.request" && e.data.card === card.cardId,
    );
    await h.restart();
    const id = (request.data as { id: string }).id;
    await new Promise((r) => setTimeout(r, 4_500));
    const after = await call(h, as, "GET", `/card-authorizations/${id}`);
    expect(after.body.data).toMatchObject({
      status: "approved",
      decisionType: "system-response",
      statusReason: "timeout-error",
    });
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 9_000, ledger: 9_000, held: 0 });
  });
});

describe("a program's own webhook", () => {
  it("addresses the authorization's events to it", async () => {
    const as = newBusiness();
    const hook = await announceWebhook(h, as, { isDefault: false, events: [], status: "enabled" });
    const customer = await announceCustomer(h, as);
    const program = await call(h, as, "POST", "/card-programs", {
      name: "Own hook",
      network: "verve",
      type: "virtual",
      currency: "NGN",
      authorization: { webhook: hook },
    });
    const card = await call(h, as, "POST", "/cards", {
      program: program.body.data.id,
      customer,
      reference: "own-hook",
    });
    const { cvv } = (await call(h, as, "GET", `/cards/${card.body.data.id}/secrets`)).body.data;
    await call(h, as, "POST", `/cards/${card.body.data.id}/activate`, { cvv, pin: "1234" });
    const reply = await decide(
      as,
      { cardId: card.body.data.id } as IssuedCard,
      "check",
      { channel: "atm" },
      { body: { action: "approve", cardBalance: 1, cardHolderName: "A" } },
    );
    const [request] = await kindsOf(reply.body.data.id, 1).then(() => eventsOf(h, reply.body.data.id));
    expect(h.routedTo.get(request!.metadata.event)).toBe(hook);
  });
});

describe("answers that must change nothing", () => {
  it("a late answer after the default decided, and a second answer, are ignored", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const reply = await decide(as, card, "capture", { amount: 1_000, channel: "online" }, { error: "timeout" });
    const request = eventsOf(h, reply.body.data.id)[0] as Envelope;
    await answerDecision(h, as, request, approve);
    await answerDecision(h, as, request, approve);
    await new Promise((r) => setTimeout(r, 200));
    expect((await call(h, as, "GET", `/card-authorizations/${reply.body.data.id}`)).body.data.status).toBe("declined");
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 10_000, held: 0 });
  });

  it("a request sent again with the same network reference is the same authorization and charges once", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const first = await decide(
      as,
      card,
      "capture",
      { amount: 3_000, channel: "online", reference: "net-ref-1" },
      approve,
    );
    const again = await simulate(as, card.cardId, "capture", {
      amount: 3_000,
      channel: "online",
      reference: "net-ref-1",
    });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 7_000 });
    // A repeat that would now be declined (more than is left), or dropped (the card blocked since), is still the
    // first authorization, as it stands.
    const events = h.events.length;
    const tooMuch = await simulate(as, card.cardId, "capture", {
      amount: 9_000,
      channel: "online",
      reference: "net-ref-1",
    });
    await call(h, as, "POST", `/cards/${card.cardId}/block`, {});
    const blocked = await simulate(as, card.cardId, "capture", {
      amount: 3_000,
      channel: "online",
      reference: "net-ref-1",
    });
    for (const repeat of [tooMuch, blocked]) {
      expect(repeat.status).toBe(200);
      expect(repeat.body.data).toMatchObject({ id: first.body.data.id, status: "approved", amount: 3_000 });
    }
    expect(h.events.length).toBe(events);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 7_000, held: 0 });
    expect((await call(h, as, "GET", "/card-authorizations")).body.data).toHaveLength(1);
  });

  it("two requests with the same network reference at the same moment are one authorization, charged once", async () => {
    const as = newBusiness();
    const card = await issueCard(h, as, { funds: 10_000 });
    const request = { amount: 2_500, channel: "online", reference: "net-ref-twice" };
    const [one, other] = await Promise.all([
      decide(as, card, "capture", request, approve),
      simulate(as, card.cardId, "capture", request),
    ]);
    expect([one.status, other.status]).toEqual([200, 200]);
    expect(other.body.data.id).toBe(one.body.data.id);
    expect((await call(h, as, "GET", "/card-authorizations")).body.data).toHaveLength(1);
    expect(await balanceOf(h, as, card.fundingAccount)).toMatchObject({ available: 7_500 });
  });
});

describe("simulation input", () => {
  it("refuses a live key with 403 and bad bodies with a 400 listing every field", async () => {
    const live = newBusiness("live");
    expect((await simulate(live, "c.11111111111111111", "capture", { amount: 1, channel: "online" })).status).toBe(403);
    const as = newBusiness();
    const card = await issueCard(h, as);
    const bad = await simulate(as, card.cardId, "capture", { amount: -1, fees: 1.5, channel: "telepathy", mcc: "12" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["amount", "channel", "fees", "mcc"]);
    expect(
      (await simulate(as, card.cardId, "update-capture", { updateAmount: 1, channel: "online" })).body.errors[0].path,
    ).toBe("amount");
    expect((await simulate(as, "c.11111111111111111", "capture", { amount: 1, channel: "online" })).status).toBe(404);
  });
});
