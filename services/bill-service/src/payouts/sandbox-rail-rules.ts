import { createHash } from "node:crypto";

/**
 * The sandbox rail's test numbers: like the bank tools' sandbox, the four digits before the check digit (the 6th to
 * 9th) choose what happens, at any bank whose check digit the number passes (`0000` and `1111` are the name
 * enquiry's: no such account, bank unreachable, so such payouts are refused before any debit). Any other number is
 * credited at once.
 */
export const SANDBOX_TRANSFER_BEHAVIOURS = {
  "2222": "slow",
  "3333": "pending-then-succeed",
  "4444": "pending-then-fail",
  "5555": "fail",
} as const;
export type SandboxTransferBehaviour =
  (typeof SANDBOX_TRANSFER_BEHAVIOURS)[keyof typeof SANDBOX_TRANSFER_BEHAVIOURS] | "succeed";

export function sandboxTransferBehaviour(accountNumber: string): SandboxTransferBehaviour {
  const digits = accountNumber.slice(5, 9);
  return Object.hasOwn(SANDBOX_TRANSFER_BEHAVIOURS, digits)
    ? SANDBOX_TRANSFER_BEHAVIOURS[digits as keyof typeof SANDBOX_TRANSFER_BEHAVIOURS]
    : "succeed";
}

/** Why the sandbox's failing transfers fail: the beneficiary's bank refused the credit. */
export const SANDBOX_TRANSFER_FAILURE = "bank-declined";

/**
 * A NIP-style session id: 30 digits, the sender institution's code (the sandbox's `999999`) then 24 digits, always
 * the same for the same payout.
 */
export function sandboxSessionId(reference: string): string {
  const digits = [...createHash("sha256").update(`session:${reference}`).digest()].map((b) => b % 10).join("");
  return `999999${digits.slice(0, 24)}`;
}
