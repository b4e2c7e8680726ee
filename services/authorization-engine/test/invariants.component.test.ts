import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS } from "@cardhold/contracts";
import { ledgerProblems } from "../../../test/support/ledger-invariants";
import {
  answerDecision,
  balanceOf,
  call,
  issueCard,
  newBusiness,
  startEngine,
  type EngineHarness,
  type Envelope,
} from "./harness";

let h: EngineHarness;

/**
 * The receiver's answers are written into each request's merchant descriptor ("capture:approve update:decline"), so
 * that concurrent requests can each get the answer the property chose for it.
 */
function answerFor(event: Envelope): { body?: unknown; error?: "timeout" } {
  const plan = String(
    (event.data as { networkData?: { cardAcceptorNameLocation?: string } }).networkData?.cardAcceptorNameLocation ?? "",
  );
  const step = event.event === "card.authorization.request" ? "capture" : "update";
  const choice = new RegExp(`${step}:(\\w+)`).exec(plan)?.[1] ?? "approve";
  if (choice === "error") return { error: "timeout" };
  return { body: choice === "approve" ? { action: "approve" } : { action: "decline", code: "insufficient-funds" } };
}

beforeAll(async () => {
  h = await startEngine();
  // Plays the dispatcher and the receiver for every decision event, answering as the plan says.
  const answer = async (event: Envelope, businessId: string) => {
    const decision =
      event.event === "card.authorization.request" ||
      (event.event === "card.authorization.update" && event.data.status === "pending");
    if (decision) await answerDecision(h, { businessId, mode: "test" }, event, answerFor(event));
  };
  await h.bus.subscribe({
    group: "test-auto-answer",
    topics: [TOPICS.events],
    handler: async (m) => {
      const { businessId, data } = m.value as { businessId: string; data: { envelope: Envelope } };
      setImmediate(() => void answer(data.envelope, businessId));
    },
  });
});
afterAll(async () => {
  await h?.stop();
});

const answer = fc.constantFrom("approve", "decline", "error");
const operation = fc.record({
  amount: fc.integer({ min: 0, max: 20_000 }),
  fees: fc.integer({ min: 0, max: 500 }),
  capture: answer,
  then: fc.oneof(
    fc.constant({ kind: "none" as const }),
    fc.constant({ kind: "reverse" as const }),
    fc.record({ kind: fc.constant("update" as const), amount: fc.integer({ min: 0, max: 30_000 }), answer }),
  ),
});

describe("ledger invariants under concurrent authorizations (property)", () => {
  /** What the runs exercised, so the property cannot pass by never reaching the interesting paths. */
  const seen = new Map<string, number>();
  const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

  it("never overspends, every hold ends, the books balance, and the card account matches its transactions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 150_000 }),
        fc.array(operation, { minLength: 1, maxLength: 10 }),
        async (funds, operations) => {
          const as = newBusiness();
          const card = await issueCard(h, as, { fundingSourceType: "card-account", funds });
          const simulate = (kind: string, body: Record<string, unknown>) =>
            call(h, as, "POST", `/simulation/cards/${card.cardId}/request-authorization/${kind}`, body);
          await Promise.all(
            operations.map(async (op) => {
              const plan = `capture:${op.capture} update:${op.then.kind === "update" ? op.then.answer : "none"}`;
              const captured = await simulate("capture", {
                amount: op.amount,
                fees: op.fees,
                channel: "online",
                merchantDescriptor: plan,
              });
              const auth = captured.body.data;
              count(
                `capture ${auth?.status} ${auth?.status === "approved" ? "" : `${auth?.decisionType} ${auth?.statusReason ?? auth?.declineReason}`}`.trim(),
              );
              if (captured.body.data?.status !== "approved") return;
              const next =
                op.then.kind === "reverse"
                  ? await simulate("reverse-capture", { authorization: captured.body.data.id, channel: "online" })
                  : op.then.kind === "update"
                    ? await simulate("update-capture", {
                        authorization: captured.body.data.id,
                        updateAmount: op.then.amount,
                        channel: "online",
                        merchantDescriptor: plan,
                      })
                    : undefined;
              if (next) count(`${op.then.kind} ${next.body.data?.status}`);
            }),
          );
          expect(await ledgerProblems((text) => h.pg.db.query(text))).toEqual([]);
          const account = await balanceOf(h, as, card.fundingAccount);
          expect(account.held).toBe(0);
          expect(account.available).toBeGreaterThanOrEqual(0);
          const transactions = (await call(h, as, "GET", `/card-transactions?filter=card:${card.cardId}&limit=100`))
            .body.data as Array<{ type: string; amount: number; fees: number }>;
          const spentFromCard = transactions
            .filter((t) => t.type !== "reversal")
            .reduce((sum, t) => sum + t.amount + t.fees, 0);
          expect(account.ledger).toBe(funds + spentFromCard);
        },
      ),
      {
        numRuns: 25,
        // One run that surely walks every path the check below asks for; the random runs add the interleavings.
        examples: [
          [
            50_000,
            [
              {
                amount: 1_000,
                fees: 10,
                capture: "approve",
                then: { kind: "update", amount: 2_000, answer: "approve" },
              },
              {
                amount: 1_000,
                fees: 10,
                capture: "approve",
                then: { kind: "update", amount: 3_000, answer: "decline" },
              },
              { amount: 1_000, fees: 10, capture: "approve", then: { kind: "reverse" } },
              { amount: 1_000, fees: 10, capture: "error", then: { kind: "none" } },
              { amount: 1_000, fees: 10, capture: "decline", then: { kind: "none" } },
              { amount: 90_000, fees: 0, capture: "approve", then: { kind: "none" } },
            ],
          ],
        ],
      },
    );
    for (const path of [
      "capture approved",
      "capture declined system-response insufficient-funds",
      "capture declined direct-response insufficient-funds",
      "capture declined system-response timeout-error",
      "update approved",
      "update declined",
      "reverse reversed",
    ]) {
      expect(seen.get(path) ?? 0, `${path} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe("ledger invariants check", () => {
  it("reports a ledger entry or a transaction that points to a row that does not exist (no foreign key checks it)", async () => {
    const db = h.pg.db;
    try {
      await db.query(
        `INSERT INTO engine.ledger_entries (id, movement_id, business_id, mode, account_id, amount, kind, reference, description, currency, created_at)
         VALUES ('le_dangling', 'mv_missing', 'biz_x', 'test', 'acct_missing', 1, 'debit', 'ref', 'dangling', 'NGN', now())`,
      );
      await db.query(
        `INSERT INTO engine.transactions (id, business_id, mode, authorization_id, card_id, customer_id, type, channel, currency, amount, fees, network_data, created_at)
         VALUES ('txn_dangling', 'biz_x', 'test', 'auth_missing', 'card_x', 'cus_x', 'purchase', 'online', 'NGN', 1, 0, '{}', now())`,
      );
      const problems = await ledgerProblems((text) => db.query(text));
      expect(problems).toContain("ledger entry le_dangling points to a row that does not exist");
      expect(problems).toContain("transaction txn_dangling points to a row that does not exist");
    } finally {
      await db.query("DELETE FROM engine.ledger_entries WHERE id = 'le_dangling'");
      await db.query("DELETE FROM engine.transactions WHERE id = 'txn_dangling'");
    }
    expect(await ledgerProblems((text) => db.query(text))).toEqual([]);
  });
});
