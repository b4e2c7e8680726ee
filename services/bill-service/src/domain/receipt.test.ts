import { describe, expect, it } from "vitest";
import type { PaymentRecord } from "./payment-record";
import { formatMinorUnits, formatTime, receiptOf } from "./receipt";

describe("amounts from minor units", () => {
  it.each([
    [150_000, "NGN", "NGN 1,500.00"],
    [10_000, "NGN", "NGN 100.00"],
    [5, "NGN", "NGN 0.05"],
    [0, "NGN", "NGN 0.00"],
    [123_456_789_012, "NGN", "NGN 1,234,567,890.12"],
    [1_050, "USD", "USD 10.50"],
    [-2_500, "USD", "USD -25.00"],
  ])("%d %s is %s", (amount, currency, text) => {
    expect(formatMinorUnits(amount, currency)).toBe(text);
  });
});

const payment: PaymentRecord = {
  id: "p.2tXNjMhytgx7hCxu9",
  object: "payment",
  type: "bill",
  status: "failed",
  amount: 150_000,
  currency: "NGN",
  fees: 10_000,
  feeBreakdown: [{ amount: 10_000, group: "bill-payment", type: "flat" }],
  account: null,
  fundingSource: null,
  method: "bill",
  methodData: {
    product: "bp.11pALsZ5v2NiSC34t",
    productName: "Ikeja Electric prepaid",
    category: "electricity",
    biller: "ikeja-electric",
    inputs: { meterNumber: "45000000001", amount: "150000" },
    accountNumber: "45000000001",
    accountName: "Ngozi Obi",
    billerReference: null,
    output: { token: "4821-0937-5512-8064-3379", receiptNumber: "RCT-1" },
  },
  customer: null,
  reference: "bill-1",
  failureReason: "insufficient-funds",
  events: [],
  metadata: {},
  createdAt: "2026-11-22T10:00:00.000Z",
  updatedAt: "2026-11-22T10:00:00.412Z",
};

describe("a payment's receipt", () => {
  it("says the amounts, the status with its reason, the bill, its output, the ids and the dates", () => {
    const receipt = receiptOf(payment);
    expect(receipt.title).toBe("Payment receipt p.2tXNjMhytgx7hCxu9");
    expect(receipt.subject).toBe("Ikeja Electric prepaid for 45000000001");
    expect(Object.fromEntries(receipt.lines)).toEqual({
      Status: "Failed (insufficient-funds)",
      Amount: "NGN 1,500.00",
      Fee: "NGN 100.00",
      "Total (amount + fee)": "NGN 1,600.00",
      Product: "Ikeja Electric prepaid (bp.11pALsZ5v2NiSC34t)",
      Biller: "ikeja-electric",
      "Account number": "45000000001",
      "Account name": "Ngozi Obi",
      Token: "4821-0937-5512-8064-3379",
      "Receipt number": "RCT-1",
      "Biller reference": "-",
      Reference: "bill-1",
      "Payment id": "p.2tXNjMhytgx7hCxu9",
      "Debited account": "-",
      Customer: "-",
      Date: "2026-11-22 10:00:00 UTC",
      "Last updated": "2026-11-22 10:00:00 UTC",
    });
  });

  it("says, for a payout, the bank, the beneficiary, the sender, the narration and the session id", () => {
    const payout: PaymentRecord = {
      ...payment,
      type: "pay-out",
      status: "successful",
      fees: 5_000,
      failureReason: null,
      method: "bank-transfer",
      methodData: {
        bankTransfer: {
          accountNumber: "0123456785",
          bankCode: "000013",
          bankName: "Guaranty Trust Bank",
          accountName: "Fatima Bello",
          sourceAccountName: null,
          narration: "Invoice 7",
          note: null,
          sessionId: "999999261122100000123456789012",
        },
      },
    };
    const receipt = receiptOf(payout);
    expect(receipt.subject).toBe("Bank transfer to 0123456785 at Guaranty Trust Bank");
    expect(receipt.lines.slice(0, 10)).toEqual([
      ["Status", "Successful"],
      ["Amount", "NGN 1,500.00"],
      ["Fee", "NGN 50.00"],
      ["Total (amount + fee)", "NGN 1,550.00"],
      ["Bank", "Guaranty Trust Bank (000013)"],
      ["Account number", "0123456785"],
      ["Account name", "Fatima Bello"],
      ["Sender", "-"],
      ["Narration", "Invoice 7"],
      ["Session id", "999999261122100000123456789012"],
    ]);
  });

  it("formats times as UTC to the second", () => {
    expect(formatTime("2026-01-02T03:04:05.678Z")).toBe("2026-01-02 03:04:05 UTC");
  });
});
