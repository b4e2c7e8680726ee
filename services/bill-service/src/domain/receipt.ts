import type { BillPaymentRecord, PaymentRecord, PayoutRecord } from "./payment-record";

/** Digits of each currency's minor unit (kobo, cents): an amount of 150 is 1.50. */
const MINOR_DIGITS: Readonly<Record<string, number>> = { NGN: 2, USD: 2 };

/** `150000` NGN → `NGN 1,500.00`: whole units grouped by thousands, then the minor units. */
export function formatMinorUnits(amount: number, currency: string): string {
  const digits = MINOR_DIGITS[currency] ?? 2;
  const scale = 10 ** digits;
  const size = Math.abs(amount);
  const whole = String(Math.floor(size / scale)).replace(/\B(?=(\d{3})+$)/g, ",");
  const minor = digits > 0 ? `.${String(size % scale).padStart(digits, "0")}` : "";
  return `${currency} ${amount < 0 ? "-" : ""}${whole}${minor}`;
}

/** `2026-11-22T10:00:00.412Z` → `2026-11-22 10:00:00 UTC`. */
export const formatTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

/** `receiptNumber` → `Receipt number`. */
const labelOf = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const STATUS_TEXT: Record<PaymentRecord["status"], string> = {
  debiting: "Processing (debiting)",
  processing: "Processing",
  refunding: "Failed, refund under way",
  successful: "Successful",
  failed: "Failed",
};

export interface Receipt {
  /** The document's title (its metadata) and heading. */
  title: string;
  subject: string;
  /** Label and value, in the order printed. */
  lines: Array<[string, string]>;
}

/** What a bill payment's receipt says about the bill: the product, the account and what the biller returned. */
function billLines(payment: BillPaymentRecord): Array<[string, string]> {
  const { methodData: bill } = payment;
  const output = Object.entries(bill.output ?? {}).map(([key, value]): [string, string] => [labelOf(key), value]);
  return [
    ["Product", `${bill.productName} (${bill.product})`],
    ["Biller", bill.biller],
    ["Account number", bill.accountNumber],
    ["Account name", bill.accountName ?? "-"],
    ...output,
    ["Biller reference", bill.billerReference ?? "-"],
  ];
}

/** What a payout's receipt says about the transfer: the beneficiary, the sender, the narration, the session id. */
function transferLines(payment: PayoutRecord): Array<[string, string]> {
  const transfer = payment.methodData.bankTransfer;
  return [
    ["Bank", `${transfer.bankName} (${transfer.bankCode})`],
    ["Account number", transfer.accountNumber],
    ["Account name", transfer.accountName],
    ["Sender", transfer.sourceAccountName ?? "-"],
    ["Narration", transfer.narration],
    ["Session id", transfer.sessionId ?? "-"],
  ];
}

const subjectOf = (payment: PaymentRecord) =>
  payment.type === "pay-out"
    ? `Bank transfer to ${payment.methodData.bankTransfer.accountNumber} at ${payment.methodData.bankTransfer.bankName}`
    : `${payment.methodData.productName} for ${payment.methodData.accountNumber}`;

/** What a payment's PDF receipt says: amounts formatted from minor units, the bill or transfer, the ids and dates. */
export function receiptOf(payment: PaymentRecord): Receipt {
  const money = (amount: number) => formatMinorUnits(amount, payment.currency);
  const status = payment.failureReason
    ? `${STATUS_TEXT[payment.status]} (${payment.failureReason})`
    : STATUS_TEXT[payment.status];
  return {
    title: `Payment receipt ${payment.id}`,
    subject: subjectOf(payment),
    lines: [
      ["Status", status],
      ["Amount", money(payment.amount)],
      ["Fee", money(payment.fees)],
      ["Total (amount + fee)", money(payment.amount + payment.fees)],
      ...(payment.type === "pay-out" ? transferLines(payment) : billLines(payment)),
      ["Reference", payment.reference ?? "-"],
      ["Payment id", payment.id],
      ["Debited account", payment.account ?? "-"],
      ["Customer", payment.customer ?? "-"],
      ["Date", formatTime(payment.createdAt)],
      ["Last updated", formatTime(payment.updatedAt)],
    ],
  };
}
