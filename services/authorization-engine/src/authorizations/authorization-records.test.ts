import { describe, expect, it } from "vitest";
import { networkResponseCode } from "./authorization-records";

type Row = Parameters<typeof networkResponseCode>[0];
const row = (
  status: Row["status"],
  decline_reason: string | null = null,
  status_reason: string | null = null,
): Row => ({
  status,
  decline_reason,
  status_reason,
  amount: 5_000,
  requested_amount: 5_000,
});

describe("the ISO 8583 response code an authorization answered the network with", () => {
  it.each<[string, Row, string | undefined]>([
    ["pending: not answered yet", row("pending"), undefined],
    ["approved", row("approved"), "00"],
    ["approved by the timeout default", row("approved", null, "timeout-error"), "00"],
    ["approved for less than asked (partial)", { ...row("approved"), amount: 3_000 }, "10"],
    [
      "approved, from before partial approval (no requested amount)",
      { ...row("approved"), requested_amount: null },
      "00",
    ],
    ["reversed (it was approved)", row("reversed"), "00"],
    ["insufficient funds", row("declined", "insufficient-funds", "insufficient-funds"), "51"],
    ["spending control", row("declined", "spending-control", "blocked-mcc"), "57"],
    ["account inactive", row("declined", "account-inactive"), "62"],
    ["account not found", row("declined", "account-not-found"), "14"],
    ["invalid transaction", row("declined", "invalid-transaction"), "12"],
    ["duplicate transaction", row("declined", "duplicate-transaction"), "94"],
    ["no answer in time", row("declined", null, "timeout-error"), "91"],
    ["the receiver answered an error", row("declined", null, "webhook-error"), "91"],
    ["an unusable answer", row("declined", null, "invalid-response"), "05"],
    ["declined without a code", row("declined"), "05"],
  ])("%s", (_case, given, expected) => {
    expect(networkResponseCode(given)).toBe(expected);
  });
});
