import { describe, expect, it } from "vitest";
import { findProduct } from "../domain/catalog";
import { sandboxAccountName, sandboxBehaviour, sandboxOutput } from "./sandbox-rules";

describe("the sandbox biller's test numbers", () => {
  it.each([
    ["45000000001", "succeed"],
    ["45000000000", "unknown-account"],
    ["45000001111", "decline"],
    ["08031112222", "slow"],
    ["7000003333", "pending-then-succeed"],
    ["2000004444", "pending-then-fail"],
    ["+12025550000", "unknown-account"],
  ])("%s → %s", (number, behaviour) => {
    expect(sandboxBehaviour(number)).toBe(behaviour);
  });

  it("names the same holder for the same number", () => {
    expect(sandboxAccountName("45000000001")).toBe(sandboxAccountName("45000000001"));
    expect(sandboxAccountName("45000000001")).toMatch(/^\w+ \w+$/);
  });

  it("returns a 20-digit token and units for prepaid electricity, and only the product's declared outputs", () => {
    const prepaid = sandboxOutput(findProduct("bp.11pALsZ5v2NiSC34t")!, "p.11pALsZ5v2NiSC34t", 209_500);
    expect(prepaid).toEqual({ token: expect.stringMatching(/^\d{4}(-\d{4}){4}$/), units: "10.00" });
    expect(Object.keys(sandboxOutput(findProduct("bp.11pALsZ669No5WrkT")!, "p.x", 1_900_000))).toEqual([
      "receiptNumber",
    ]);
  });
});
