import { createHash } from "node:crypto";
import type { BillProduct } from "../domain/bill-product";

/**
 * The sandbox biller's test numbers: the last four digits of the account number (phone, meter, account, smartcard)
 * choose what happens. Any other valid number succeeds at once.
 */
export const SANDBOX_BEHAVIOURS = {
  "0000": "unknown-account",
  "1111": "decline",
  "2222": "slow",
  "3333": "pending-then-succeed",
  "4444": "pending-then-fail",
} as const;
export type SandboxBehaviour = (typeof SANDBOX_BEHAVIOURS)[keyof typeof SANDBOX_BEHAVIOURS] | "succeed";

export function sandboxBehaviour(accountNumber: string): SandboxBehaviour {
  const suffix = accountNumber.slice(-4);
  return Object.hasOwn(SANDBOX_BEHAVIOURS, suffix)
    ? SANDBOX_BEHAVIOURS[suffix as keyof typeof SANDBOX_BEHAVIOURS]
    : "succeed";
}

const NAMES = [
  "Adaeze Okafor",
  "Babatunde Adeyemi",
  "Chinedu Eze",
  "Fatima Bello",
  "Ifeoma Nwosu",
  "Oluwaseun Balogun",
  "Musa Abdullahi",
  "Ngozi Obi",
  "Tunde Bakare",
  "Zainab Yusuf",
];

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The account holder the sandbox reports for a number: always the same name for the same number. */
export function sandboxAccountName(accountNumber: string): string {
  return NAMES[digest(accountNumber)[0]! % NAMES.length]!;
}

export const sandboxBillerReference = (reference: string) =>
  `SBX-${digest(reference).toString("hex").slice(0, 12).toUpperCase()}`;

/** Kobo per kWh the sandbox sells electricity at. */
const TARIFF_PER_KWH = 20_950;

function token(reference: string): string {
  const digits = [...digest(`token:${reference}`)]
    .map((b) => b % 10)
    .join("")
    .slice(0, 20);
  return digits.match(/.{4}/g)!.join("-");
}

function units(amount: number): string {
  const centiKwh = Math.floor((amount * 100) / TARIFF_PER_KWH);
  return `${Math.floor(centiKwh / 100)}.${String(centiKwh % 100).padStart(2, "0")}`;
}

/** What a successful sandbox order returns, shaped by the product's declared output. */
export function sandboxOutput(product: BillProduct, reference: string, amount: number): Record<string, string> {
  const code = digest(`receipt:${reference}`).toString("hex").slice(0, 10).toUpperCase();
  const values: Record<string, string> = {
    token: token(reference),
    units: units(amount),
    receiptNumber: `RCT-${code}`,
    confirmationCode: `CNF-${code}`,
  };
  return Object.fromEntries(product.output.map((o) => [o.name, values[o.name] ?? code]));
}
