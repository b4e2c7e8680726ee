import { describe, expect, it } from "vitest";
import { asField14, cvv2Matches, expiresAt, expiryRefused } from "./card-checks";

const at = (iso: string) => Date.parse(iso);

describe("card data a network message carries", () => {
  it("a card is valid through the last day of its expiry month", () => {
    expect(expiresAt("11/27")).toBe(at("2027-12-01T00:00:00Z"));
    expect(expiresAt("12/27")).toBe(at("2028-01-01T00:00:00Z"));
    expect(asField14("11/27")).toBe("2711");
  });

  it.each<[string, string, string | undefined, string, boolean]>([
    ["no field 14, valid card", "11/27", undefined, "2026-06-01T00:00:00Z", false],
    ["field 14 the card's", "11/27", "2711", "2026-06-01T00:00:00Z", false],
    ["field 14 another month", "11/27", "2712", "2026-06-01T00:00:00Z", true],
    ["the last day of the month", "11/27", "2711", "2027-11-30T23:59:59Z", false],
    ["past its expiry", "11/27", "2711", "2027-12-01T00:00:00Z", true],
    ["past its expiry, no field 14", "11/27", undefined, "2028-01-01T00:00:00Z", true],
  ])("%s", (_case, card, field14, now, refused) => {
    expect(expiryRefused(card, field14, at(now))).toBe(refused);
  });

  it.each([
    ["123", "123", true],
    ["124", "123", false],
    ["1234", "123", false],
    ["", "123", false],
  ])("CVV2 %s against %s", (given, own, matches) => {
    expect(cvv2Matches(given, own)).toBe(matches);
  });
});
