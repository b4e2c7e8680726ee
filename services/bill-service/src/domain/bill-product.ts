import type { Currency } from "@cardhold/contracts";

export const CATEGORY_IDS = ["airtime", "mobile-data", "electricity", "cable-tv"] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

export interface BillCategory {
  id: CategoryId;
  object: "bill.category";
  name: string;
  description: string;
}

/** One input a biller wants. Amounts are integer minor units, sent as a number or a string of digits. */
export type InputSpec =
  | { name: string; label: string; type: "string"; required: boolean; pattern: string; example: string }
  | { name: string; label: string; type: "amount"; required: boolean; minAmount: number; maxAmount: number };

export interface OutputSpec {
  name: string;
  description: string;
}

export interface BillProduct {
  id: `bp.${string}`;
  object: "bill.product";
  name: string;
  category: CategoryId;
  /** The biller's code (what the payment's methodData names) and display name. */
  biller: string;
  billerName: string;
  currency: Currency;
  /** Fixed price in minor units, or null when the price is the `amount` input. */
  price: number | null;
  /** Charged on top of the amount; the ledger debit is amount + fee. */
  fee: { type: "flat"; amount: number };
  inputs: InputSpec[];
  /** The input naming the account at the biller (phone, meter, smartcard): the one validation looks up. */
  accountInput: string;
  /** What a successful payment returns in methodData.output. */
  output: OutputSpec[];
}
