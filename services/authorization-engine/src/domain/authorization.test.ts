import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mccListProblem } from "@cardhold/contracts";
import {
  applyAnswer,
  applyStandIn,
  applyTimeoutDefault,
  askReceiver,
  declineByService,
  decideWithoutAsking,
  IllegalTransition,
  requestAmountUpdate,
  reverse,
  tooLateToAsk,
  type Authorization,
  type Effect,
  type Step,
} from "./authorization";
import { MCC_CATEGORIES } from "./mcc-categories";
import { mccInList, mccInLists, preCheck, type AuthorizationContext, type MccLists } from "./pre-checks";

const NOW = 1_700_000_000_000;

function fresh(overrides: Partial<Authorization> = {}): Authorization {
  return {
    id: "c.auth.1",
    type: "capture",
    status: "pending",
    amount: 50_000,
    requestedAmount: 50_000,
    partialApprovalAllowed: false,
    fees: 6_500,
    decisionType: null,
    statusReason: null,
    declineReason: null,
    reserved: false,
    held: 0,
    debited: 0,
    pendingUpdate: null,
    decisionDueAt: null,
    timeoutDefault: "decline",
    cardBalance: null,
    cardHolderName: null,
    metadata: {},
    standInRule: null,
    ...overrides,
  };
}
const asked = (o: Partial<Authorization> = {}) => askReceiver(fresh(o), NOW).authorization;
const approved = (o: Partial<Authorization> = {}) => applyAnswer(asked(o), { action: "approve" }, NOW).authorization;
const kinds = (step: Step) => step.effects.map((e) => (e.kind === "emit" ? `emit ${e.event}` : e.kind));

describe("the interface's transition table, row by row", () => {
  it("created + a pre-check fails → declined by the service, card.authorization.closed", () => {
    const step = declineByService(fresh(), "insufficient-funds");
    expect(step.authorization).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      declineReason: "insufficient-funds",
      reserved: false,
    });
    expect(kinds(step)).toEqual(["emit card.authorization.closed"]);
  });

  it("created + all checks pass → funds held, card.authorization.request (capture), answer due in 4 s", () => {
    const step = askReceiver(fresh(), NOW);
    expect(step.authorization).toMatchObject({
      status: "pending",
      reserved: true,
      held: 56_500,
      decisionDueAt: NOW + 4_000,
    });
    expect(step.effects).toEqual([
      { kind: "hold", amount: 56_500 },
      { kind: "emit", event: "card.authorization.request" },
      { kind: "await-decision", dueAt: NOW + 4_000 },
    ]);
  });

  it("created + all checks pass, but too late to ask → the timeout default at once, platform-overloaded, nothing asked", () => {
    expect(tooLateToAsk(NOW - 3_800, NOW)).toBe(true);
    expect(tooLateToAsk(NOW - 3_700, NOW)).toBe(false);
    const declined = decideWithoutAsking(fresh(), NOW - 3_900);
    expect(declined.authorization).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      statusReason: "platform-overloaded",
      held: 0,
      decisionDueAt: null,
    });
    expect(kinds(declined)).toEqual(["hold", "release-hold", "emit card.authorization.closed"]);
    const approvedByDefault = decideWithoutAsking(fresh({ timeoutDefault: "approve" }), NOW - 3_900);
    expect(approvedByDefault.authorization).toMatchObject({
      status: "approved",
      statusReason: "platform-overloaded",
      debited: 56_500,
    });
    expect(kinds(approvedByDefault)).toEqual([
      "hold",
      "capture-hold",
      "emit card.authorization.closed",
      "create-transaction",
    ]);
    const check = decideWithoutAsking(fresh({ type: "check", amount: 0, fees: 0, timeoutDefault: "approve" }), NOW, {
      cardBalance: 10,
      cardHolderName: "Ada",
    });
    expect(check.authorization).toMatchObject({
      status: "approved",
      cardBalance: 10,
      cardHolderName: "Ada",
      statusReason: "platform-overloaded",
    });
    expect(kinds(check)).toEqual([]);
  });

  it("held + approve → approved, hold becomes a debit, closed event and a negative transaction", () => {
    const step = applyAnswer(asked(), { action: "approve", metadata: { ref: "r1" } }, NOW);
    expect(step.authorization).toMatchObject({
      status: "approved",
      decisionType: "direct-response",
      reserved: false,
      held: 0,
      debited: 56_500,
      metadata: { ref: "r1" },
    });
    expect(step.effects).toEqual([
      { kind: "capture-hold", amount: 56_500 },
      { kind: "emit", event: "card.authorization.closed" },
      { kind: "create-transaction", type: "capture", amount: -50_000, fees: -6_500 },
    ]);
  });

  it("held + decline → declined, hold released, the code stored, closed event", () => {
    const step = applyAnswer(asked(), { action: "decline", code: "insufficient-funds" }, NOW);
    expect(step.authorization).toMatchObject({
      status: "declined",
      decisionType: "direct-response",
      declineReason: "insufficient-funds",
      held: 0,
      reserved: false,
    });
    expect(step.effects).toEqual([
      { kind: "release-hold", amount: 56_500 },
      { kind: "emit", event: "card.authorization.closed" },
    ]);
  });

  it("approved + amount change → pending, the increase held, card.authorization.update, 4 s to answer", () => {
    const step = requestAmountUpdate(approved(), { amount: 60_000, fees: 6_500 }, NOW, 10_000);
    expect(step.authorization).toMatchObject({
      status: "pending",
      pendingUpdate: { amount: 60_000, fees: 6_500 },
      decisionDueAt: NOW + 4_000,
      held: 10_000,
      reserved: true,
    });
    expect(kinds(step)).toEqual(["hold", "emit card.authorization.update", "await-decision"]);
  });

  it("approved + an increase the funding source cannot cover → declined by the service, the capture stands", () => {
    const step = requestAmountUpdate(approved(), { amount: 60_000, fees: 6_500 }, NOW, 9_999);
    expect(step.authorization).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      declineReason: "insufficient-funds",
      debited: 56_500,
      amount: 50_000,
    });
    expect(kinds(step)).toEqual(["emit card.authorization.closed"]);
  });

  it("pending update + approve → approved at the new amount, the held increase captured", () => {
    const pending = requestAmountUpdate(approved(), { amount: 60_000, fees: 6_500 }, NOW, 10_000).authorization;
    const step = applyAnswer(pending, { action: "approve" }, NOW);
    expect(step.authorization).toMatchObject({
      status: "approved",
      amount: 60_000,
      debited: 66_500,
      held: 0,
      reserved: false,
      pendingUpdate: null,
    });
    expect(step.effects).toEqual([
      { kind: "capture-hold", amount: 10_000 },
      { kind: "emit", event: "card.authorization.closed" },
      { kind: "create-transaction", type: "adjustment", amount: -10_000, fees: 0 },
    ]);
  });

  it("pending update + approve of a smaller amount → the difference refunded, nothing held", () => {
    const step = requestAmountUpdate(approved(), { amount: 40_000, fees: 6_500 }, NOW, 0);
    expect(kinds(step)).toEqual(["emit card.authorization.update", "await-decision"]);
    const answered = applyAnswer(step.authorization, { action: "approve" }, NOW);
    expect(answered.effects).toContainEqual({ kind: "refund", amount: 10_000 });
    expect(answered.effects).toContainEqual({
      kind: "create-transaction",
      type: "adjustment",
      amount: 10_000,
      fees: 0,
    });
  });

  it("pending update + decline → declined with the code, the held increase released, the original capture kept", () => {
    const pending = requestAmountUpdate(approved(), { amount: 90_000, fees: 6_500 }, NOW, 40_000).authorization;
    const step = applyAnswer(pending, { action: "decline", code: "insufficient-funds" }, NOW);
    expect(step.authorization).toMatchObject({
      status: "declined",
      declineReason: "insufficient-funds",
      amount: 50_000,
      debited: 56_500,
      held: 0,
    });
    expect(step.effects).toEqual([
      { kind: "release-hold", amount: 40_000 },
      { kind: "emit", event: "card.authorization.closed" },
    ]);
  });

  it.each([
    [
      "the receiver declines it",
      (p: Authorization) => applyAnswer(p, { action: "decline", code: "invalid-transaction" }, NOW),
    ],
    ["no answer, timeout default decline", (p: Authorization) => applyTimeoutDefault(p, NOW + 4_000)],
  ])("pending decrease + %s → the lower amount applies all the same (the network's, not refusable)", (_, decide) => {
    const pending = requestAmountUpdate(
      approved({ timeoutDefault: "decline" }),
      { amount: 40_000, fees: 6_500 },
      NOW,
      0,
    );
    const step = decide(pending.authorization);
    expect(step.authorization).toMatchObject({
      status: "approved",
      decisionType: "system-response",
      statusReason: "decrease-not-refusable",
      declineReason: null,
      amount: 40_000,
      debited: 46_500,
      pendingUpdate: null,
    });
    expect(step.effects).toEqual([
      { kind: "refund", amount: 10_000 },
      { kind: "emit", event: "card.authorization.closed" },
      { kind: "create-transaction", type: "adjustment", amount: 10_000, fees: 0 },
    ]);
  });

  it("pending update to the same total + decline → declined, as an increase's decline (nothing to lower)", () => {
    const pending = requestAmountUpdate(approved(), { amount: 50_000, fees: 6_500 }, NOW, 0).authorization;
    const step = applyAnswer(pending, { action: "decline", code: "invalid-transaction" }, NOW);
    expect(step.authorization).toMatchObject({
      status: "declined",
      declineReason: "invalid-transaction",
      debited: 56_500,
    });
  });

  it.each(["approve", "decline"] as const)(
    "pending + no answer in 4 s → the timeout default (%s), system-response, timeout-error",
    (timeoutDefault) => {
      const step = applyTimeoutDefault(asked({ timeoutDefault }), NOW + 4_000);
      expect(step.authorization).toMatchObject({
        status: timeoutDefault === "approve" ? "approved" : "declined",
        decisionType: "system-response",
        statusReason: "timeout-error",
      });
      expect(step.authorization.declineReason).toBeNull();
      const update = applyTimeoutDefault(
        requestAmountUpdate(approved({ timeoutDefault }), { amount: 90_000, fees: 6_500 }, NOW, 40_000).authorization,
        NOW,
      );
      expect(update.authorization).toMatchObject({ decisionType: "system-response", statusReason: "timeout-error" });
    },
  );

  it("an unusable answer (error, bad body) applies the timeout default with its reason", () => {
    const step = applyAnswer(asked(), { action: "unusable", reason: "invalid-response" }, NOW);
    expect(step.authorization).toMatchObject({
      status: "declined",
      decisionType: "system-response",
      statusReason: "invalid-response",
    });
  });

  it("approved + reversal → reversed, the amount credited to the settlement balance, card.authorization.update", () => {
    const step = reverse(approved());
    expect(step.authorization).toMatchObject({ status: "reversed", debited: 0 });
    expect(step.effects).toEqual([
      { kind: "credit-settlement", amount: 56_500 },
      { kind: "emit", event: "card.authorization.update" },
      { kind: "create-transaction", type: "reversal", amount: 50_000, fees: 6_500 },
    ]);
  });

  it("check → card.authorization.request without a hold; approve needs an integer cardBalance and a cardHolderName", () => {
    const check = askReceiver(fresh({ type: "check", amount: 0, fees: 0 }), NOW);
    expect(kinds(check)).toEqual(["emit card.authorization.request", "await-decision"]);
    const good = applyAnswer(
      check.authorization,
      { action: "approve", cardBalance: 120_000, cardHolderName: "Ada Obi" },
      NOW,
    );
    expect(good.authorization).toMatchObject({ status: "approved", cardBalance: 120_000, cardHolderName: "Ada Obi" });
    for (const bad of [
      { cardBalance: 1.5, cardHolderName: "A" },
      { cardHolderName: "A" },
      { cardBalance: 5 },
      { cardBalance: 5, cardHolderName: "" },
    ]) {
      const step = applyAnswer(check.authorization, { action: "approve", ...bad }, NOW);
      expect(step.authorization).toMatchObject({
        status: "declined",
        statusReason: "invalid-response",
        declineReason: null,
      });
    }
  });

  it("a check with no usable answer: the timeout default approves with the platform's balance and name, or declines", () => {
    const check = askReceiver(
      fresh({ type: "check", amount: 0, fees: 0, timeoutDefault: "approve" }),
      NOW,
    ).authorization;
    const approvedCheck = applyTimeoutDefault(check, NOW, "timeout-error", {
      cardBalance: 7_000,
      cardHolderName: "Ada Obi",
    });
    expect(approvedCheck.authorization).toMatchObject({
      status: "approved",
      cardBalance: 7_000,
      cardHolderName: "Ada Obi",
      decisionType: "system-response",
    });
    expect(approvedCheck.effects).toEqual([]);
    const declined = applyTimeoutDefault({ ...check, timeoutDefault: "decline" }, NOW);
    expect(declined.authorization).toMatchObject({ status: "declined", statusReason: "timeout-error" });
    expect(declined.effects).toEqual([]);
  });

  it.each<[string, () => Step]>([
    ["answering an approved authorization", () => applyAnswer(approved(), { action: "approve" }, NOW)],
    ["asking twice", () => askReceiver(asked(), NOW)],
    ["reversing a declined one", () => reverse(declineByService(fresh(), "x").authorization)],
    ["updating a pending one", () => requestAmountUpdate(asked(), { amount: 1, fees: 0 }, NOW, 0)],
    [
      "updating a check",
      () =>
        requestAmountUpdate(
          applyAnswer(
            asked({ type: "check", amount: 0, fees: 0 }),
            { action: "approve", cardBalance: 1, cardHolderName: "A" },
            NOW,
          ).authorization,
          { amount: 1, fees: 0 },
          NOW,
          0,
        ),
    ],
    ["a timeout when nothing is asked", () => applyTimeoutDefault(approved(), NOW)],
    ["reversing a reversed one", () => reverse(reverse(approved()).authorization)],
    ["a service decline after asking", () => declineByService(asked(), "x")],
  ])("refuses %s with a typed error", (_name, run) => {
    expect(run).toThrow(IllegalTransition);
  });
});

describe("partial approval: an approve naming a smaller amount, where the request allowed it", () => {
  const partial = { partialApprovalAllowed: true };

  it("held + approve of less, allowed → approved at that amount: its total captured, the rest released", () => {
    const step = applyAnswer(asked(partial), { action: "approve", amount: 30_000 }, NOW);
    expect(step.authorization).toMatchObject({
      status: "approved",
      decisionType: "direct-response",
      amount: 30_000,
      requestedAmount: 50_000,
      fees: 6_500,
      held: 0,
      debited: 36_500,
      reserved: false,
    });
    expect(step.effects).toEqual([
      { kind: "capture-hold", amount: 36_500 },
      { kind: "release-hold", amount: 20_000 },
      { kind: "emit", event: "card.authorization.closed" },
      { kind: "create-transaction", type: "capture", amount: -30_000, fees: -6_500 },
    ]);
  });

  it.each<[string, Partial<Authorization>, number]>([
    ["the amount asked, allowed", partial, 50_000],
    ["the amount asked, not allowed", {}, 50_000],
  ])("held + approve of %s → a full approval", (_name, o, amount) => {
    const step = applyAnswer(asked(o), { action: "approve", amount }, NOW);
    expect(step.authorization).toMatchObject({ status: "approved", amount: 50_000, debited: 56_500 });
  });

  it.each<[string, Partial<Authorization>, number]>([
    ["more than asked", partial, 50_001],
    ["less, where the request did not allow it", {}, 30_000],
    ["nothing (0)", partial, 0],
    ["a fraction", partial, 1.5],
  ])("held + approve of %s → unusable: the timeout default decides, invalid-response", (_name, o, amount) => {
    for (const timeoutDefault of ["approve", "decline"] as const) {
      const step = applyAnswer(asked({ ...o, timeoutDefault }), { action: "approve", amount }, NOW);
      expect(step.authorization).toMatchObject({
        status: timeoutDefault === "approve" ? "approved" : "declined",
        decisionType: "system-response",
        statusReason: "invalid-response",
        amount: 50_000,
      });
    }
  });

  it("an amount change or a check is never approved for less: unusable", () => {
    const pending = requestAmountUpdate(approved(partial), { amount: 60_000, fees: 6_500 }, NOW, 10_000).authorization;
    const update = applyAnswer(pending, { action: "approve", amount: 55_000 }, NOW);
    expect(update.authorization).toMatchObject({ status: "declined", statusReason: "invalid-response" });
    const whole = applyAnswer(pending, { action: "approve", amount: 60_000 }, NOW);
    expect(whole.authorization).toMatchObject({ status: "approved", amount: 60_000, requestedAmount: 60_000 });
    const check = asked({ type: "check", amount: 0, fees: 0, ...partial });
    const answered = applyAnswer(check, { action: "approve", amount: 1, cardBalance: 1, cardHolderName: "A" }, NOW);
    expect(answered.authorization).toMatchObject({ status: "declined", statusReason: "invalid-response" });
  });

  it("a partially approved capture reverses what it debited", () => {
    const partly = applyAnswer(asked(partial), { action: "approve", amount: 30_000 }, NOW).authorization;
    expect(reverse(partly).effects).toEqual([
      { kind: "credit-settlement", amount: 36_500 },
      { kind: "emit", event: "card.authorization.update" },
      { kind: "create-transaction", type: "reversal", amount: 30_000, fees: 6_500 },
    ]);
  });
});

describe("stand-in: the program's rules decide a capture without a usable answer", () => {
  const approveByRule = { action: "approve", rule: "small" } as const;
  const declineByRule = { action: "decline", rule: "small" } as const;

  it("pending + no answer, stand-in approves → approved as stand-in with the rule, the hold captured", () => {
    const step = applyTimeoutDefault(asked(), NOW, "timeout-error", undefined, approveByRule);
    expect(step.authorization).toMatchObject({
      status: "approved",
      decisionType: "stand-in",
      statusReason: "timeout-error",
      standInRule: "small",
      declineReason: null,
      debited: 56_500,
    });
    expect(kinds(step)).toEqual(["capture-hold", "emit card.authorization.closed", "create-transaction"]);
  });

  it("pending + no answer, stand-in declines (whatever the flat default) → declined as stand-in, the hold released", () => {
    const step = applyTimeoutDefault(
      asked({ timeoutDefault: "approve" }),
      NOW,
      "timeout-error",
      undefined,
      declineByRule,
    );
    expect(step.authorization).toMatchObject({
      status: "declined",
      decisionType: "stand-in",
      statusReason: "timeout-error",
      standInRule: "small",
      declineReason: null,
      held: 0,
    });
    expect(kinds(step)).toEqual(["release-hold", "emit card.authorization.closed"]);
  });

  it("an unusable answer (a partial approval not allowed) → stand-in decides, invalid-response", () => {
    const step = applyAnswer(asked(), { action: "approve", amount: 1 }, NOW, undefined, approveByRule);
    expect(step.authorization).toMatchObject({
      status: "approved",
      decisionType: "stand-in",
      statusReason: "invalid-response",
      amount: 50_000,
    });
  });

  it("a usable answer is the answer: the verdict is not used", () => {
    const step = applyAnswer(asked(), { action: "decline", code: "insufficient-funds" }, NOW, undefined, approveByRule);
    expect(step.authorization).toMatchObject({ decisionType: "direct-response", standInRule: null });
  });

  it("too late to ask → stand-in decides at once, platform-overloaded", () => {
    const step = decideWithoutAsking(fresh(), NOW - 3_900, undefined, declineByRule);
    expect(step.authorization).toMatchObject({
      status: "declined",
      decisionType: "stand-in",
      statusReason: "platform-overloaded",
      standInRule: "small",
    });
    expect(kinds(step)).toEqual(["hold", "release-hold", "emit card.authorization.closed"]);
  });

  it("checks and amount changes keep the flat timeout default", () => {
    const check = asked({ type: "check", amount: 0, fees: 0 });
    expect(applyTimeoutDefault(check, NOW, "timeout-error", undefined, approveByRule).authorization).toMatchObject({
      status: "declined",
      decisionType: "system-response",
    });
    const pending = requestAmountUpdate(approved(), { amount: 1, fees: 0 }, NOW, 0).authorization;
    expect(applyTimeoutDefault(pending, NOW, "timeout-error", undefined, approveByRule).authorization).toMatchObject({
      decisionType: "system-response",
      standInRule: null,
    });
  });

  it.each<[string, () => Step]>([
    ["on a check", () => applyStandIn(asked({ type: "check", amount: 0, fees: 0 }), approveByRule, "timeout-error")],
    ["on an approved capture", () => applyStandIn(approved(), approveByRule, "timeout-error")],
    [
      "on an amount change",
      () =>
        applyStandIn(
          requestAmountUpdate(approved(), { amount: 1, fees: 0 }, NOW, 0).authorization,
          approveByRule,
          "timeout-error",
        ),
    ],
  ])("refuses stand-in %s with a typed error", (_name, run) => {
    expect(run).toThrow(IllegalTransition);
  });
});

describe("ledger effects over any sequence of transitions", () => {
  const net = (effects: Effect[]) => {
    let held = 0;
    let debited = 0;
    for (const e of effects) {
      if (e.kind === "hold") held += e.amount;
      if (e.kind === "release-hold") held -= e.amount;
      if (e.kind === "capture-hold") {
        held -= e.amount;
        debited += e.amount;
      }
      if (e.kind === "refund" || e.kind === "credit-settlement") debited -= e.amount;
    }
    return { held, debited };
  };
  const action = fc.oneof(
    fc.constant({ t: "approve" as const }),
    fc.record({ t: fc.constant("partial" as const), amount: fc.integer({ min: -1, max: 1_100_000 }) }),
    fc.record({ t: fc.constant("stand-in" as const), action: fc.constantFrom("approve" as const, "decline" as const) }),
    fc.record({
      t: fc.constant("decline" as const),
      code: fc.constantFrom("insufficient-funds", "invalid-transaction"),
    }),
    fc.constant({ t: "timeout" as const }),
    fc.record({
      t: fc.constant("update" as const),
      amount: fc.integer({ min: 0, max: 1_000_000 }),
      fees: fc.integer({ min: 0, max: 10_000 }),
      available: fc.integer({ min: 0, max: 1_000_000 }),
    }),
    fc.constant({ t: "reverse" as const }),
  );

  it("never holds or debits a negative amount, and every hold ends captured or released", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom("approve", "decline"),
        fc.boolean(),
        fc.array(action, { maxLength: 8 }),
        (amount, fees, timeoutDefault, partialApprovalAllowed, actions) => {
          const start = fresh({
            amount,
            requestedAmount: amount,
            fees,
            partialApprovalAllowed,
            timeoutDefault: timeoutDefault as "approve" | "decline",
          });
          let step = askReceiver(start, NOW);
          const effects = [...step.effects];
          for (const a of actions) {
            try {
              const auth = step.authorization;
              step =
                a.t === "approve"
                  ? applyAnswer(auth, { action: "approve" }, NOW)
                  : a.t === "partial"
                    ? applyAnswer(auth, { action: "approve", amount: a.amount }, NOW)
                    : a.t === "stand-in"
                      ? applyTimeoutDefault(auth, NOW, "timeout-error", undefined, { action: a.action, rule: "r" })
                      : a.t === "decline"
                        ? applyAnswer(auth, { action: "decline", code: a.code }, NOW)
                        : a.t === "timeout"
                          ? applyTimeoutDefault(auth, NOW)
                          : a.t === "update"
                            ? requestAmountUpdate(auth, { amount: a.amount, fees: a.fees }, NOW, a.available)
                            : reverse(auth);
              effects.push(...step.effects);
            } catch (error) {
              if (!(error instanceof IllegalTransition)) throw error;
            }
            const totals = net(effects);
            if (totals.held < 0 || totals.debited < 0) return false;
            if (totals.held !== step.authorization.held || totals.debited !== step.authorization.debited) return false;
          }
          const final = step.authorization;
          if (final.amount > final.requestedAmount) return false;
          return final.status === "pending" || final.held === 0;
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("pre-checks", () => {
  const base: AuthorizationContext = {
    type: "capture",
    cardStatus: "active",
    customerStatus: "active",
    accountStatus: "active",
    available: 100_000,
    amount: 50_000,
    fees: 6_500,
    channel: "online",
    mcc: "5541",
    merchant: "mch.1",
    controls: {},
    spent: {},
  };

  it.each<[string, Partial<AuthorizationContext>, string, string?]>([
    ["all active and funded", {}, "pass"],
    ["inactive card", { cardStatus: "inactive" }, "drop"],
    ["blocked card", { cardStatus: "blocked" }, "drop"],
    ["inactive customer", { customerStatus: "inactive" }, "drop"],
    ["inactive account", { accountStatus: "frozen" }, "drop"],
    ["balance below amount + fees", { available: 56_499 }, "decline", "insufficient-funds/insufficient-funds"],
    ["balance exactly amount + fees", { available: 56_500 }, "pass"],
    ["negative amount", { amount: -1 }, "decline", "invalid-transaction/invalid-transaction"],
    [
      "channel not allowed",
      { controls: { allowedChannels: ["pos"] } },
      "decline",
      "spending-control/channel-not-allowed",
    ],
    [
      "channel blocked",
      { controls: { blockedChannels: ["online"] } },
      "decline",
      "spending-control/channel-not-allowed",
    ],
    ["mcc in an allowed range", { controls: { allowedMcc: "5540-5542,7654" } }, "pass"],
    [
      "mcc outside the allowed list",
      { controls: { allowedMcc: "7654" } },
      "decline",
      "spending-control/mcc-not-allowed",
    ],
    [
      "mcc in a blocked range",
      { controls: { blockedMcc: "5000-5999" } },
      "decline",
      "spending-control/mcc-not-allowed",
    ],
    ["mcc in a documented array element", { controls: { allowedMcc: ["5541-5542,7654"] } }, "pass"],
    ["mcc in a later array element", { controls: { allowedMcc: ["7399", "7395", "5541"] } }, "pass"],
    [
      "mcc in no array element",
      { controls: { allowedMcc: ["7399", "7395"] } },
      "decline",
      "spending-control/mcc-not-allowed",
    ],
    ["an empty allowed array restricts nothing", { controls: { allowedMcc: [] } }, "pass"],
    [
      "mcc blocked by an array element",
      { controls: { blockedMcc: ["7399", "5540-5549"] } },
      "decline",
      "spending-control/mcc-not-allowed",
    ],
    ["mcc in no blocked array element", { controls: { blockedMcc: ["7399", "7395"] } }, "pass"],
    [
      "no mcc with an allowed array",
      { mcc: undefined, controls: { allowedMcc: ["5541"] } },
      "decline",
      "spending-control/mcc-not-allowed",
    ],
    ["no mcc with a blocked array", { mcc: undefined, controls: { blockedMcc: ["5541"] } }, "pass"],
    [
      "merchant not allowed",
      { controls: { allowedMerchants: ["mch.2"] } },
      "decline",
      "spending-control/merchant-not-allowed",
    ],
    [
      "merchant blocked",
      { controls: { blockedMerchants: ["mch.1"] } },
      "decline",
      "spending-control/merchant-not-allowed",
    ],
    [
      "within the monthly limit",
      { controls: { spendingLimits: [{ amount: 100_000, interval: "monthly" }] }, spent: { monthly: 43_500 } },
      "pass",
    ],
    [
      "over the monthly limit",
      { controls: { spendingLimits: [{ amount: 100_000, interval: "monthly" }] }, spent: { monthly: 43_501 } },
      "decline",
      "spending-control/spending-limit-exceeded",
    ],
    [
      "over a per-authorization limit",
      { controls: { spendingLimits: [{ amount: 50_000, interval: "per-authorization" }] } },
      "decline",
      "spending-control/spending-limit-exceeded",
    ],
    ["mcc in an allowed category", { controls: { allowedCategories: ["fuel-stations"] } }, "pass"],
    [
      "mcc outside the allowed categories",
      { controls: { allowedCategories: ["groceries", "restaurants"] } },
      "decline",
      "spending-control/category-not-allowed",
    ],
    [
      "mcc in a blocked category",
      { controls: { blockedCategories: ["fuel-stations"] } },
      "decline",
      "spending-control/category-not-allowed",
    ],
    ["airline mcc in flight-ticket", { mcc: "4511", controls: { allowedCategories: ["flight-ticket"] } }, "pass"],
    [
      "travel agency mcc in a blocked flight-ticket",
      { mcc: "4722", controls: { blockedCategories: ["flight-ticket"] } },
      "decline",
      "spending-control/category-not-allowed",
    ],
    [
      "betting mcc blocked as betting",
      { mcc: "7995", controls: { blockedCategories: ["betting"] } },
      "decline",
      "spending-control/category-not-allowed",
    ],
    ["hotel mcc in hospitality", { mcc: "7011", controls: { allowedCategories: ["hospitality"] } }, "pass"],
    [
      "campground mcc blocked as hospitality",
      { mcc: "7033", controls: { blockedCategories: ["hospitality"] } },
      "decline",
      "spending-control/category-not-allowed",
    ],
    [
      "fuel mcc outside hospitality",
      { controls: { allowedCategories: ["hospitality"] } },
      "decline",
      "spending-control/category-not-allowed",
    ],
    [
      "no mcc with an allowed category list",
      { mcc: undefined, controls: { allowedCategories: ["groceries"] } },
      "decline",
      "spending-control/category-not-allowed",
    ],
    ["a check ignores the balance", { type: "check", amount: 0, fees: 0, available: 0 }, "pass"],
    [
      "a check ignores spending limits",
      { type: "check", controls: { spendingLimits: [{ amount: 1, interval: "daily" }] } },
      "pass",
    ],
    [
      "a check still honours channel controls",
      { type: "check", controls: { blockedChannels: ["online"] } },
      "decline",
      "spending-control/channel-not-allowed",
    ],
    [
      "over the daily limit with earlier spending",
      { controls: { spendingLimits: [{ amount: 60_000, interval: "daily" }] }, spent: { daily: 3_501 } },
      "decline",
      "spending-control/spending-limit-exceeded",
    ],
  ])("%s → %s", (_name, change, outcome, reason) => {
    const result = preCheck({ ...base, ...change });
    expect(result.outcome).toBe(outcome);
    if (reason) {
      const [declineReason, detail] = reason.split("/");
      expect(result).toMatchObject({ reason: declineReason, detail });
    }
  });

  it("reads MCC lists with ranges", () => {
    expect(mccInList("5541", "5541-5542,7654")).toBe(true);
    expect(mccInList("7654", "5541-5542, 7654")).toBe(true);
    expect(mccInList("5543", "5541-5542,7654")).toBe(false);
  });

  it.each<[string, MccLists | undefined, boolean]>([
    ["a documented mixed element", ["5541-5542,7654"], true],
    ["one of several elements", ["7399", "7395", "7654"], true],
    ["none of several elements", ["7399", "7395"], false],
    ["today's single string", "5541-5542,7654", true],
    ["an empty array", [], false],
    ["no list", undefined, false],
  ])("mccInLists: %s", (_name, lists, inside) => {
    expect(mccInLists("7654", lists)).toBe(inside);
  });

  it("every category resolves to valid, ascending MCC ranges", () => {
    for (const [name, list] of Object.entries(MCC_CATEGORIES)) expect(mccListProblem(list), name).toBeUndefined();
  });
});
