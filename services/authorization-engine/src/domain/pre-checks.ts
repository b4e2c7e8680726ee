/**
 * The checks before an authorization is put to the receiver (interface "States and transitions"; ARCHITECTURE §5):
 * an inactive card, customer or account drops the request; a failed account, balance or spending-control check
 * declines it. Pure: the caller supplies the statuses, the balance and what was spent per interval.
 */
import type { CHANNELS } from "@cardhold/contracts";
import { MCC_CATEGORIES, type MccCategory } from "./mcc-categories";
import type { LimitInterval } from "./spending-windows";

export type Channel = (typeof CHANNELS)[number];

export type MccLists = string | string[];

export interface SpendingControls {
  allowedChannels?: Channel[];
  blockedChannels?: Channel[];
  /** Arrays of "5541-5542,7654" style lists; a card stored before the array form holds a single string. */
  allowedMcc?: MccLists;
  blockedMcc?: MccLists;
  allowedCategories?: MccCategory[];
  blockedCategories?: MccCategory[];
  allowedMerchants?: string[];
  blockedMerchants?: string[];
  spendingLimits?: Array<{ amount: number; interval: LimitInterval }>;
}

export interface AuthorizationContext {
  type: "check" | "capture";
  cardStatus: string;
  customerStatus: string;
  accountStatus: string;
  /** Available balance of the funding source, minor units. */
  available: number;
  amount: number;
  fees: number;
  channel: Channel;
  mcc?: string;
  merchant?: string;
  controls: SpendingControls;
  /** Already spent (captured or held) per interval, minor units. */
  spent: Partial<Record<LimitInterval, number>>;
}

/** A decline names the declineReason (`reason`) and which check failed (`detail`, the statusReason). */
export type PreCheck =
  { outcome: "drop"; reason: string } | { outcome: "decline"; reason: string; detail: string } | { outcome: "pass" };

/** The declineReason of every spending-control failure, as the reference receiver names it. */
export const SPENDING_CONTROL = "spending-control";

/** Whether an MCC is in a list like "5541-5542,7654" (ranges inclusive). */
export function mccInList(mcc: string, list: string): boolean {
  const code = Number(mcc);
  return list
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .some((part) => {
      const [low, high] = part.split("-").map(Number) as [number, number | undefined];
      return high === undefined ? code === low : code >= low && code <= high;
    });
}

/** The documented array form of an MCC control, from either stored form. */
export const mccListsOf = (lists: MccLists | undefined): string[] =>
  lists === undefined ? [] : typeof lists === "string" ? [lists] : lists;

/** Whether an MCC is in any of the lists; no lists (absent or empty) name no MCC. */
export const mccInLists = (mcc: string, lists: MccLists | undefined): boolean =>
  mccListsOf(lists).some((list) => mccInList(mcc, list));

const inCategories = (mcc: string, categories: MccCategory[]) =>
  categories.some((c) => mccInList(mcc, MCC_CATEGORIES[c]));

function merchantProblem(c: AuthorizationContext): string | undefined {
  const { controls } = c;
  if (controls.allowedChannels?.length && !controls.allowedChannels.includes(c.channel)) return "channel-not-allowed";
  if (controls.blockedChannels?.includes(c.channel)) return "channel-not-allowed";
  if (mccListsOf(controls.allowedMcc).length && (!c.mcc || !mccInLists(c.mcc, controls.allowedMcc)))
    return "mcc-not-allowed";
  if (c.mcc && mccInLists(c.mcc, controls.blockedMcc)) return "mcc-not-allowed";
  if (controls.allowedCategories?.length && (!c.mcc || !inCategories(c.mcc, controls.allowedCategories)))
    return "category-not-allowed";
  if (controls.blockedCategories?.length && c.mcc && inCategories(c.mcc, controls.blockedCategories))
    return "category-not-allowed";
  if (controls.allowedMerchants?.length && (!c.merchant || !controls.allowedMerchants.includes(c.merchant)))
    return "merchant-not-allowed";
  if (c.merchant && controls.blockedMerchants?.includes(c.merchant)) return "merchant-not-allowed";
  return undefined;
}

function limitProblem(c: AuthorizationContext): string | undefined {
  const total = c.amount + c.fees;
  for (const limit of c.controls.spendingLimits ?? []) {
    const before = limit.interval === "per-authorization" ? 0 : (c.spent[limit.interval] ?? 0);
    if (before + total > limit.amount) return "spending-limit-exceeded";
  }
  return undefined;
}

export function preCheck(c: AuthorizationContext): PreCheck {
  if (c.cardStatus !== "active") return { outcome: "drop", reason: `the card is ${c.cardStatus}` };
  if (c.customerStatus !== "active") return { outcome: "drop", reason: `the card's customer is ${c.customerStatus}` };
  if (c.accountStatus !== "active")
    return { outcome: "drop", reason: `the card's funding account is ${c.accountStatus}` };
  if (!Number.isSafeInteger(c.amount) || c.amount < 0 || !Number.isSafeInteger(c.fees) || c.fees < 0) {
    return { outcome: "decline", reason: "invalid-transaction", detail: "invalid-transaction" };
  }
  const merchant = merchantProblem(c);
  if (merchant) return { outcome: "decline", reason: SPENDING_CONTROL, detail: merchant };
  if (c.type === "check") return { outcome: "pass" };
  if (c.available < c.amount + c.fees)
    return { outcome: "decline", reason: "insufficient-funds", detail: "insufficient-funds" };
  const limit = limitProblem(c);
  return limit ? { outcome: "decline", reason: SPENDING_CONTROL, detail: limit } : { outcome: "pass" };
}
