import { describe, expect, it } from "vitest";
import {
  INTERFACE_RESPONSE_CODES,
  responseCodeOfDecision,
  STATUS_REASONS_WITH_CODES,
  type DecisionOutcome,
} from "./network-response-codes";
import { DECLINE_CODES, UNUSABLE_REASONS } from "./receiver-answer";

const outcome = (
  status: DecisionOutcome["status"],
  declineReason: string | null = null,
  statusReason: string | null = null,
): DecisionOutcome => ({ status, declineReason, statusReason, amount: 5_000, requestedAmount: 5_000 });

describe("the ISO 8583 response code of a decision", () => {
  it.each<[string, DecisionOutcome, string | undefined]>([
    ["pending: no answer yet", outcome("pending"), undefined],
    ["approved by the receiver", outcome("approved"), "00"],
    ["approved by the timeout default", outcome("approved", null, "timeout-error"), "00"],
    ["approved by stand-in", outcome("approved", null, "connection-error"), "00"],
    ["approved for less than asked (partial)", { ...outcome("approved"), amount: 3_000 }, "10"],
    ["approved, from before partial approvals", { ...outcome("approved"), requestedAmount: null }, "00"],
    ["reversed (it had been approved)", outcome("reversed"), "00"],
    // The pre-checks (domain/pre-checks.ts): declineReason, and statusReason naming the check.
    ["balance too low", outcome("declined", "insufficient-funds", "insufficient-funds"), "51"],
    ["an amount that is not one", outcome("declined", "invalid-transaction", "invalid-transaction"), "12"],
    ["channel not allowed", outcome("declined", "spending-control", "channel-not-allowed"), "57"],
    ["MCC not allowed", outcome("declined", "spending-control", "mcc-not-allowed"), "57"],
    ["category not allowed", outcome("declined", "spending-control", "category-not-allowed"), "57"],
    ["merchant not allowed", outcome("declined", "spending-control", "merchant-not-allowed"), "57"],
    ["a spending limit exceeded", outcome("declined", "spending-control", "spending-limit-exceeded"), "61"],
    [
      "an amount change the funding cannot cover",
      outcome("declined", "insufficient-funds", "insufficient-funds"),
      "51",
    ],
    // The receiver's own decline codes (interface "Authorization response body").
    ["receiver: insufficient funds", outcome("declined", "insufficient-funds"), "51"],
    ["receiver: spending control", outcome("declined", "spending-control"), "57"],
    ["receiver: account inactive", outcome("declined", "account-inactive"), "62"],
    ["receiver: account not found", outcome("declined", "account-not-found"), "14"],
    ["receiver: invalid transaction", outcome("declined", "invalid-transaction"), "12"],
    ["receiver: duplicate transaction", outcome("declined", "duplicate-transaction"), "94"],
    ["receiver: declined without a code", outcome("declined"), "05"],
    ["receiver: a code of its own (stored as given)", outcome("declined", "some-other-code"), "05"],
    // No usable answer: the timeout default (or stand-in) declined.
    ["no answer in time", outcome("declined", null, "timeout-error"), "91"],
    ["the receiver answered an error status", outcome("declined", null, "webhook-error"), "91"],
    ["the receiver could not be reached", outcome("declined", null, "connection-error"), "91"],
    ["no webhook to ask", outcome("declined", null, "no-webhook"), "91"],
    ["too late to ask (the platform was behind)", outcome("declined", null, "platform-overloaded"), "91"],
    ["an answer that is not one", outcome("declined", null, "invalid-response"), "05"],
    ["a check approved without a balance", outcome("declined", null, "invalid-response"), "05"],
    ["a statusReason the table does not know, with a code", outcome("declined", "insufficient-funds", "x"), "51"],
  ])("%s", (_case, given, expected) => {
    expect(responseCodeOfDecision(given)).toBe(expected);
  });

  it("has a code for every reason the engine records when no usable answer came", () => {
    for (const reason of [...new Set(Object.values(UNUSABLE_REASONS)), "webhook-error", "invalid-response"])
      expect(STATUS_REASONS_WITH_CODES, reason).toContain(reason);
  });

  it("has a code other than 05 for every decline code a receiver may send", () => {
    for (const code of DECLINE_CODES) expect(responseCodeOfDecision(outcome("declined", code)), code).not.toBe("05");
  });
});

describe("the ISO 8583 response code of what the interface found itself", () => {
  it.each([
    ["accepted", "00"],
    ["unknown-card", "14"],
    ["expired-card", "54"],
    ["cvv2-mismatch", "05"],
    ["card-not-usable", "62"],
    ["invalid-transaction", "12"],
    ["format-error", "30"],
    ["original-not-found", "25"],
    ["issuer-unavailable", "91"],
    ["system-malfunction", "96"],
  ] as const)("%s: %s", (found, code) => {
    expect(INTERFACE_RESPONSE_CODES[found]).toBe(code);
  });
});
