/**
 * The checks before a capture is put to the receiver (interface "States and transitions"; ARCHITECTURE §5):
 * an inactive card, customer or account drops the request; a failed account, balance or spending-control check
 * declines it. Pure: the caller supplies the statuses, the balance and what was spent per interval.
 */
export type Channel = "atm" | "pos" | "online" | "in-app";
export type LimitInterval = "daily" | "weekly" | "monthly" | "yearly" | "per-authorization" | "all-time";

export interface SpendingControls {
  allowedChannels?: Channel[];
  blockedChannels?: Channel[];
  /** "5541-5542,7654" style lists. */
  allowedMcc?: string;
  blockedMcc?: string;
  allowedMerchants?: string[];
  blockedMerchants?: string[];
  spendingLimits?: Array<{ amount: number; interval: LimitInterval }>;
}

export interface CaptureContext {
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

export type PreCheck = { outcome: "drop"; reason: string } | { outcome: "decline"; reason: string } | { outcome: "pass" };

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

function controlProblem(c: CaptureContext): string | undefined {
  const { controls } = c;
  if (controls.allowedChannels?.length && !controls.allowedChannels.includes(c.channel)) return "channel-not-allowed";
  if (controls.blockedChannels?.includes(c.channel)) return "channel-not-allowed";
  if (controls.allowedMcc && (!c.mcc || !mccInList(c.mcc, controls.allowedMcc))) return "mcc-not-allowed";
  if (controls.blockedMcc && c.mcc && mccInList(c.mcc, controls.blockedMcc)) return "mcc-not-allowed";
  if (controls.allowedMerchants?.length && (!c.merchant || !controls.allowedMerchants.includes(c.merchant))) return "merchant-not-allowed";
  if (c.merchant && controls.blockedMerchants?.includes(c.merchant)) return "merchant-not-allowed";
  const total = c.amount + c.fees;
  for (const limit of controls.spendingLimits ?? []) {
    const before = limit.interval === "per-authorization" ? 0 : (c.spent[limit.interval] ?? 0);
    if (before + total > limit.amount) return "spending-limit-exceeded";
  }
  return undefined;
}

export function preCheckCapture(c: CaptureContext): PreCheck {
  if (c.cardStatus !== "active") return { outcome: "drop", reason: `card is ${c.cardStatus}` };
  if (c.customerStatus !== "active") return { outcome: "drop", reason: `customer is ${c.customerStatus}` };
  if (c.accountStatus !== "active") return { outcome: "drop", reason: `account is ${c.accountStatus}` };
  if (!Number.isSafeInteger(c.amount) || c.amount < 0 || !Number.isSafeInteger(c.fees) || c.fees < 0) {
    return { outcome: "decline", reason: "invalid-transaction" };
  }
  if (c.available < c.amount + c.fees) return { outcome: "decline", reason: "insufficient-funds" };
  const control = controlProblem(c);
  return control ? { outcome: "decline", reason: control } : { outcome: "pass" };
}
