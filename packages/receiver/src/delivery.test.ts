import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { approve, approveCheck, decline, fitsRequest, InvalidAnswer, type AuthorizationAnswer } from "./answers.js";
import { createReceiver, type Handlers } from "./receiver.js";
import { memoryDeliveryStore, type DeliverySession, type DeliveryStore } from "./store.js";

const KEY = "delivery-test-signing-key";
const FIXTURES = new URL("../../../test/fixtures/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), "utf8");
const sign = (body: string, key = KEY) => createHmac("sha512", key).update(body).digest("hex");

let seq = 0;
function envelope(
  event: string,
  data: Record<string, unknown>,
  eventId = `evt.t${++seq}`,
  sentAt = "2024-01-01T00:00:00.000Z",
) {
  const authorization = {
    object: "card.authorization",
    card: "c.1",
    type: "capture",
    status: "pending",
    amount: 1000,
    fees: 0,
    currency: "NGN",
    createdAt: "2024-01-01T00:00:00.000Z",
  };
  return JSON.stringify({
    event,
    data: { ...authorization, ...data },
    metadata: { sentAt, event: eventId },
  });
}

function recordingHandlers(calls: string[], overrides: Partial<Handlers> = {}): Handlers {
  return {
    check: () => approveCheck(1, "Ada"),
    capture: (a) => (calls.push(`capture:${a.id}`), approve()),
    closed: (a) => (calls.push(`closed:${a.id}`), approve()),
    amountUpdate: (a) => (calls.push(`amountUpdate:${a.id}:${a.status}:${a.amount}`), approve()),
    reversal: (a) => (calls.push(`reversal:${a.id}:${a.status}`), approve()),
    ...overrides,
  };
}

describe("card.authorization.update", () => {
  it("sends an amount change and a reversal to different handlers, and refuses any other status", async () => {
    const calls: string[] = [];
    const receiver = createReceiver({
      signingKey: KEY,
      store: memoryDeliveryStore(),
      handlers: recordingHandlers(calls),
    });
    const reversal = fixture("event-card.authorization.update.json");
    const pending = envelope("card.authorization.update", { id: "c.auth.P", amount: 700 });
    const approved = envelope("card.authorization.update", { id: "c.auth.Q", status: "approved" });
    expect(await receiver.handle(reversal, sign(reversal))).toEqual({ status: 200, body: { action: "approve" } });
    expect(await receiver.handle(pending, sign(pending))).toEqual({ status: 200, body: { action: "approve" } });
    expect(await receiver.handle(approved, sign(approved))).toEqual({
      status: 400,
      body: { error: "Invalid Request" },
    });
    expect(calls).toEqual(["reversal:c.auth.2tWnAbJMupWGmnjTC:reversed", "amountUpdate:c.auth.P:pending:700"]);
  });

  it("answers an unknown event kind 400", async () => {
    const receiver = createReceiver({ signingKey: KEY, store: memoryDeliveryStore(), handlers: recordingHandlers([]) });
    const body = envelope("card.authorization.created", { id: "c.auth.U" });
    expect(await receiver.handle(body, sign(body))).toEqual({ status: 400, body: { error: "Invalid Request" } });
  });
});

describe("answers can only be valid", () => {
  it("the builders refuse what the platform would not accept", () => {
    expect(() => approve({ cardBalance: 1.5 })).toThrow(InvalidAnswer);
    expect(() => approve({ cardHolderName: "" })).toThrow(InvalidAnswer);
    expect(() => decline("nope" as never)).toThrow(InvalidAnswer);
    expect(() => approveCheck(Number.NaN, "Ada")).toThrow(InvalidAnswer);
    expect(decline("spending-control", { rule: "daily" })).toEqual({
      action: "decline",
      code: "spending-control",
      metadata: { rule: "daily" },
    });
  });

  it("a handler's invalid answer rejects and leaves nothing behind, so the resent event is handled again", async () => {
    let answer: unknown = { action: "approve" };
    const receiver = createReceiver({
      signingKey: KEY,
      store: memoryDeliveryStore(),
      handlers: recordingHandlers([], { check: () => answer as never, capture: () => answer as AuthorizationAnswer }),
    });
    const check = envelope("card.authorization.request", { id: "c.auth.C", type: "check" });
    await expect(receiver.handle(check, sign(check))).rejects.toThrow(/cardBalance/);
    const capture = envelope("card.authorization.request", { id: "c.auth.D" });
    answer = { action: "maybe" };
    await expect(receiver.handle(capture, sign(capture))).rejects.toThrow(InvalidAnswer);
    answer = approveCheck(10, "Ada");
    expect((await receiver.handle(check, sign(check))).body).toEqual({
      action: "approve",
      cardBalance: 10,
      cardHolderName: "Ada",
    });
    answer = approve();
    // Not "duplicate-transaction": the failed delivery's claim on c.auth.D was rolled back with it.
    expect((await receiver.handle(capture, sign(capture))).body).toEqual({ action: "approve" });
  });
});

describe("partial approval: approve({ amount })", () => {
  it("builds an approve for less, and refuses an amount that is not a positive whole number", () => {
    expect(approve({ amount: 3_000 })).toEqual({ action: "approve", amount: 3_000 });
    expect(() => approve({ amount: 0 })).toThrow(InvalidAnswer);
    expect(() => approve({ amount: 10.5 })).toThrow(InvalidAnswer);
  });

  it.each<[string, { amount: number; partialApprovalAllowed?: boolean }, AuthorizationAnswer, boolean]>([
    ["no amount named", { amount: 5_000 }, { action: "approve" }, true],
    ["the amount asked", { amount: 5_000 }, { action: "approve", amount: 5_000 }, true],
    ["less, allowed", { amount: 5_000, partialApprovalAllowed: true }, { action: "approve", amount: 3_000 }, true],
    [
      "less, not allowed",
      { amount: 5_000, partialApprovalAllowed: false },
      { action: "approve", amount: 3_000 },
      false,
    ],
    ["less, not said", { amount: 5_000 }, { action: "approve", amount: 3_000 }, false],
    ["more, allowed", { amount: 5_000, partialApprovalAllowed: true }, { action: "approve", amount: 5_001 }, false],
    ["a decline", { amount: 5_000 }, { action: "decline", code: "insufficient-funds" }, true],
  ])("fitsRequest: %s", (_name, asked, answer, fits) => {
    if (fits) expect(fitsRequest(answer, asked)).toBe(answer);
    else expect(() => fitsRequest(answer, asked)).toThrow(InvalidAnswer);
  });

  it("the receiver answers a capture that allows it for less, and refuses a partial answer anywhere else", async () => {
    let partial = 600;
    const receiver = createReceiver({
      signingKey: KEY,
      store: memoryDeliveryStore(),
      handlers: recordingHandlers([], {
        capture: () => approve({ amount: partial }),
        amountUpdate: () => approve({ amount: 500 }),
      }),
    });
    const allowed = envelope("card.authorization.request", { id: "c.auth.PA", partialApprovalAllowed: true });
    expect((await receiver.handle(allowed, sign(allowed))).body).toEqual({ action: "approve", amount: 600 });
    const notAllowed = envelope("card.authorization.request", { id: "c.auth.PN" });
    await expect(receiver.handle(notAllowed, sign(notAllowed))).rejects.toThrow(/partial approval/);
    partial = 1_001;
    const more = envelope("card.authorization.request", { id: "c.auth.PM", partialApprovalAllowed: true });
    await expect(receiver.handle(more, sign(more))).rejects.toThrow(/more than/);
    const update = envelope("card.authorization.update", { id: "c.auth.PU", partialApprovalAllowed: true });
    await expect(receiver.handle(update, sign(update))).rejects.toThrow(InvalidAnswer);
  });
});

describe("duplicate tracking", () => {
  it("handles one event once when it arrives several times at once", async () => {
    const calls: string[] = [];
    const slowCapture = async () => {
      calls.push("capture");
      await new Promise((r) => setTimeout(r, 20));
      return approve();
    };
    const receiver = createReceiver({
      signingKey: KEY,
      store: memoryDeliveryStore(),
      handlers: recordingHandlers(calls, { capture: slowCapture }),
    });
    const body = envelope("card.authorization.request", { id: "c.auth.Same" });
    const answers = await Promise.all(Array.from({ length: 5 }, () => receiver.handle(body, sign(body))));
    expect(calls).toEqual(["capture"]);
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify({ status: 200, body: { action: "approve" } })]),
    );
  });

  it("goes through the DeliveryStore: the handlers get its transaction handle, and it sees every claim", async () => {
    const log: string[] = [];
    const store: DeliveryStore<{ name: string }> = {
      async transaction(work) {
        const session: DeliverySession<{ name: string }> = {
          tx: { name: "tx-1" },
          claimEvent: async (id) => (log.push(`event:${id}`), { first: true }),
          remember: async (id, answer) => void log.push(`remember:${id}:${JSON.stringify(answer)}`),
          claimAuthorization: async (id) => (log.push(`authorization:${id}`), false),
          recordClosed: async (id) => void log.push(`closed:${id}`),
          closedSince: async () => false,
        };
        return work(session);
      },
    };
    const receiver = createReceiver({
      signingKey: KEY,
      store,
      handlers: {
        check: (_a, { tx }) => approveCheck(1, tx.name),
        capture: () => approve(),
        closed: () => approve(),
        amountUpdate: () => approve(),
        reversal: () => approve(),
      },
    });
    const check = envelope("card.authorization.request", { id: "c.auth.X", type: "check" }, "evt.check");
    const capture = envelope("card.authorization.request", { id: "c.auth.Y" }, "evt.capture");
    expect((await receiver.handle(check, sign(check))).body).toEqual({
      action: "approve",
      cardBalance: 1,
      cardHolderName: "tx-1",
    });
    expect((await receiver.handle(capture, sign(capture))).body).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
    expect(log).toEqual([
      "event:evt.check",
      'remember:evt.check:{"action":"approve","cardBalance":1,"cardHolderName":"tx-1"}',
      "event:evt.capture",
      "authorization:c.auth.Y",
      'remember:evt.capture:{"action":"decline","code":"duplicate-transaction"}',
    ]);
  });
});

describe("a decision request the platform closed before it arrived", () => {
  const at = (second: number) => `2024-01-01T00:00:0${second}.000Z`;
  const deliver = (receiver: ReturnType<typeof createReceiver>, kind: string, data: object, second: number) => {
    const body = envelope(kind, { id: "c.auth.Late", ...data }, undefined, at(second));
    return receiver.handle(body, sign(body)).then((r) => r.body);
  };
  const recordingReceiver = (calls: string[]) =>
    createReceiver({ signingKey: KEY, store: memoryDeliveryStore(), handlers: recordingHandlers(calls) });

  it("an amount change made before the latest closed event changes nothing; one made after it is handled", async () => {
    const calls: string[] = [];
    const receiver = recordingReceiver(calls);
    await deliver(receiver, "card.authorization.request", {}, 0);
    await deliver(receiver, "card.authorization.closed", { status: "approved" }, 1);
    await deliver(receiver, "card.authorization.closed", { status: "declined" }, 6);
    expect(await deliver(receiver, "card.authorization.update", { status: "pending", amount: 2000 }, 2)).toEqual({
      action: "decline",
      code: "duplicate-transaction",
    });
    expect(await deliver(receiver, "card.authorization.update", { status: "pending", amount: 3000 }, 7)).toEqual({
      action: "approve",
    });
    expect(calls).toEqual([
      "capture:c.auth.Late",
      "closed:c.auth.Late",
      "closed:c.auth.Late",
      "amountUpdate:c.auth.Late:pending:3000",
    ]);
  });

  it("an earlier closed event handled late does not move the mark back, and a reversal is never stale", async () => {
    const calls: string[] = [];
    const receiver = recordingReceiver(calls);
    await deliver(receiver, "card.authorization.request", {}, 0);
    await deliver(receiver, "card.authorization.closed", { status: "declined" }, 6);
    await deliver(receiver, "card.authorization.closed", { status: "approved" }, 1);
    expect(await deliver(receiver, "card.authorization.update", { status: "pending" }, 5)).toMatchObject({
      action: "decline",
    });
    expect(await deliver(receiver, "card.authorization.update", { status: "reversed" }, 5)).toEqual({
      action: "approve",
    });
    expect(calls.at(-1)).toBe("reversal:c.auth.Late:reversed");
  });

  it("refuses an event whose sentAt is not a timestamp", async () => {
    const receiver = createReceiver({ signingKey: KEY, store: memoryDeliveryStore(), handlers: recordingHandlers([]) });
    const body = envelope("card.authorization.closed", { id: "c.auth.X" }, undefined, "yesterday");
    expect(await receiver.handle(body, sign(body))).toEqual({ status: 400, body: { error: "Invalid Request" } });
  });
});

describe("signing keys", () => {
  it("accepts any of several keys while one is rolled, and refuses an empty key", async () => {
    const receiver = createReceiver({
      signingKey: ["old-key", KEY],
      store: memoryDeliveryStore(),
      handlers: recordingHandlers([]),
    });
    const body = fixture("event-card.transaction.created.json");
    expect((await receiver.handle(body, sign(body, "old-key"))).status).toBe(200);
    expect((await receiver.handle(body, sign(body, KEY))).status).toBe(200);
    expect((await receiver.handle(body, sign(body, "other"))).status).toBe(400);
    expect(() =>
      createReceiver({ signingKey: "", store: memoryDeliveryStore(), handlers: recordingHandlers([]) }),
    ).toThrow(TypeError);
  });
});
