import { describe, expect, it } from "vitest";
import { receivePayIn, type PayInOutcome } from "./payment-request-rules";

describe("a pay-in to a payment request's account", () => {
  it.each<[string, "pending" | "completed", number, PayInOutcome]>([
    ["the exact amount completes a pending request", "pending", 50_000, { kind: "complete" }],
    ["less goes back", "pending", 49_999, { kind: "refund", reason: "wrong-amount" }],
    ["more goes back", "pending", 50_001, { kind: "refund", reason: "wrong-amount" }],
    [
      "the exact amount again, once paid, goes back",
      "completed",
      50_000,
      { kind: "refund", reason: "already-completed" },
    ],
    ["another amount, once paid, goes back", "completed", 10, { kind: "refund", reason: "already-completed" }],
  ])("%s", (_, status, amount, outcome) => {
    expect(receivePayIn({ status, amount: 50_000 }, { amount })).toEqual(outcome);
  });
});
