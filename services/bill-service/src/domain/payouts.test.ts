import { describe, expect, it } from "vitest";
import type { PayoutMethod } from "@cardhold/contracts";
import type { ConfiguredFee } from "./bill-fee";
import { bankTransferDestination, payoutFee, unsupportedPayout } from "./payouts";

describe("which payouts are made", () => {
  it.each<[PayoutMethod, string, string | undefined]>([
    ["bank-transfer", "NGN", undefined],
    ["bank-transfer", "USD", "currency-not-supported"],
    ["transfer", "NGN", "method-not-supported"],
    ["fx-transfer", "USD", "method-not-supported"],
    ["fx-charge", "NGN", "method-not-supported"],
    ["billing", "NGN", "method-not-supported"],
    ["local-transfer", "NGN", "method-not-supported"],
  ])("%s in %s → %s", (method, currency, code) => {
    expect(unsupportedPayout(method, currency)?.code).toBe(code);
  });

  it("names what is supported", () => {
    expect(unsupportedPayout("transfer", "NGN")?.message).toBe(
      "Payouts by transfer are not supported; supported: bank-transfer",
    );
  });
});

describe("the bank account of a bank transfer", () => {
  it.each([
    ["a NIP code", { accountNumber: "0123456785", bankCode: "000013" }, "058"],
    ["a CBN code", { accountNumber: "0123456785", bankCode: "058" }, "058"],
    ["another institution's 5-digit code", { accountNumber: "0123456785", bankCode: "50515" }, "50515"],
  ])("is found by %s", (_name, options, code) => {
    const destination = bankTransferDestination(options);
    expect(destination).toMatchObject({ ok: true, accountNumber: "0123456785", bank: { code } });
  });

  it.each([
    ["nothing", {}, ["options.accountNumber", "options.bankCode"]],
    ["no bank", { accountNumber: "0123456785" }, ["options.bankCode"]],
    ["no account number", { bankCode: "000013" }, ["options.accountNumber"]],
    ["9 digits", { accountNumber: "012345678", bankCode: "000013" }, ["options.accountNumber"]],
    ["letters", { accountNumber: "01234567AB", bankCode: "000013" }, ["options.accountNumber"]],
    ["an unknown bank", { accountNumber: "0123456785", bankCode: "999999" }, ["options.bankCode"]],
    ["both wrong", { accountNumber: "12", bankCode: "1" }, ["options.accountNumber", "options.bankCode"]],
    ["a wrong check digit", { accountNumber: "0123456784", bankCode: "000013" }, ["options.accountNumber"]],
  ])("refuses %s, naming every bad field", (_name, options, paths) => {
    const destination = bankTransferDestination(options);
    expect(destination.ok).toBe(false);
    if (!destination.ok) expect(destination.problems.map((p) => p.path)).toEqual(paths);
  });

  it("says which bank the check digit is wrong at", () => {
    expect(bankTransferDestination({ accountNumber: "0123456784", bankCode: "058" })).toEqual({
      ok: false,
      problems: [
        {
          path: "options.accountNumber",
          message: "not an account number at Guaranty Trust Bank: its check digit is wrong",
        },
      ],
    });
  });
});

const flat = (id: string, value: number, currency = "NGN"): ConfiguredFee => ({
  id,
  currency,
  terms: { structure: "flat", value, cap: null },
});
const percent: ConfiguredFee = {
  id: "fee.p",
  currency: "NGN",
  terms: { structure: "percentage", value: 1.5, cap: 5_000 },
};

describe("the fee of a payout", () => {
  it.each<[string, number, ConfiguredFee | null, ConfiguredFee | null, number, string | undefined]>([
    ["none named, none configured", 100_000, null, null, 0, undefined],
    ["the configured fee", 100_000, null, flat("fee.c", 2_500), 2_500, "fee.c"],
    ["the named fee over the configured one", 100_000, flat("fee.n", 1_000), flat("fee.c", 2_500), 1_000, "fee.n"],
    ["a configured fee in another currency: none", 100_000, null, flat("fee.c", 100, "USD"), 0, undefined],
    ["a percentage, rounded half up", 100_033, percent, null, 1_500, "fee.p"],
    ["a percentage, capped", 1_000_000, percent, null, 5_000, "fee.p"],
  ])("%s", (_name, amount, named, configured, fee, feeId) => {
    const result = payoutFee(amount, "NGN", named, configured);
    expect(result).toMatchObject({ ok: true, fee });
    if (result.ok) expect(result.breakdown.map((item) => item.fee)).toEqual(feeId ? [feeId] : []);
  });

  it("itemises the fee as a bank-transfer fee of its structure", () => {
    expect(payoutFee(100_000, "NGN", null, flat("fee.c", 2_500))).toEqual({
      ok: true,
      fee: 2_500,
      breakdown: [{ amount: 2_500, group: "bank-transfer", type: "flat", fee: "fee.c" }],
    });
  });

  it("refuses a named fee in another currency", () => {
    expect(payoutFee(100_000, "NGN", flat("fee.n", 100, "USD"), null)).toEqual({
      ok: false,
      problem: { path: "fee", message: "fee fee.n is in USD; the payout is in NGN" },
    });
  });
});
