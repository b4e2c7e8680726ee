import { describe, expect, it } from "vitest";
import { billFee, type ConfiguredFee } from "./bill-fee";
import { findProduct } from "./catalog";

const ELECTRICITY = findProduct("bp.11pALsZ5v2NiSC34t")!; // NGN, product fee 10,000
const DATA = findProduct("bp.11pALsZ5pEtYdYb1z")!; // NGN, no product fee
const US_TOPUP = findProduct("bp.11pALsZ6CP5xuxU6d")!; // USD, product fee 50

const fee = (terms: ConfiguredFee["terms"], currency = "NGN"): ConfiguredFee => ({
  id: "fee.2tVZhC8kRmP3xQwEy",
  currency,
  terms,
});
const configured = (amount: number, type: string) => [
  { amount, group: "bill-payment", type, fee: "fee.2tVZhC8kRmP3xQwEy" },
];
const own = (amount: number) => [{ amount, group: "bill-payment", type: "flat" }];

describe("bill fee", () => {
  it.each([
    ["no configuration: the product's fee", ELECTRICITY, 150_000, null, 10_000, own(10_000)],
    ["no configuration, no product fee: nothing itemised", DATA, 100_000, null, 0, []],
    [
      "a configured flat fee",
      ELECTRICITY,
      150_000,
      fee({ structure: "flat", value: 2_500, cap: null }),
      2_500,
      configured(2_500, "flat"),
    ],
    [
      "a configured fee of 0 still says it applied",
      ELECTRICITY,
      150_000,
      fee({ structure: "flat", value: 0, cap: null }),
      0,
      configured(0, "flat"),
    ],
    [
      "1.25 % of 150,150 rounds half up",
      ELECTRICITY,
      150_150,
      fee({ structure: "percentage", value: 1.25, cap: null }),
      1_877,
      configured(1_877, "percentage"),
    ],
    [
      "a percentage limited to its cap",
      ELECTRICITY,
      150_000,
      fee({ structure: "percentage", value: 10, cap: 3_000 }),
      3_000,
      configured(3_000, "percentage"),
    ],
    [
      "a fee in another currency than the bill's: the product's",
      US_TOPUP,
      1_000,
      fee({ structure: "flat", value: 2_500, cap: null }),
      50,
      own(50),
    ],
    [
      "a USD fee on a USD bill",
      US_TOPUP,
      1_000,
      fee({ structure: "percentage", value: 2, cap: null }, "USD"),
      20,
      configured(20, "percentage"),
    ],
  ] as const)("%s", (_, product, amount, configuredFee, charged, breakdown) => {
    expect(billFee(product, amount, configuredFee)).toEqual({ fee: charged, breakdown });
  });
});
