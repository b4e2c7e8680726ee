import { describe, expect, it } from "vitest";
import { BILLING_ID_PREFIX, createBillingSchema, IllegalBillingTransition, newBillingId, transition } from "./billing";

describe("billing status transitions", () => {
  it.each([
    ["pending", "paid", "paid"],
    ["pending", "void", "void"],
    ["paid", "paid", "paid"],
    ["void", "void", "void"],
  ] as const)("%s → %s gives %s", (from, to, expected) => {
    expect(transition(from, to)).toBe(expected);
  });

  it.each([
    ["paid", "void"],
    ["void", "paid"],
  ] as const)("%s → %s is illegal", (from, to) => {
    expect(() => transition(from, to)).toThrow(IllegalBillingTransition);
  });
});

describe("the operator's billing body", () => {
  const valid = { amount: 2_500_000, currency: "NGN", description: "Card maintenance, March 2025" };

  it("defaults the mode to live and takes a period", () => {
    expect(createBillingSchema.parse(valid)).toEqual({ ...valid, mode: "live" });
    const period = { start: "2025-03-01", end: "2025-03-31" };
    expect(createBillingSchema.parse({ ...valid, period, mode: "test" })).toEqual({ ...valid, period, mode: "test" });
  });

  it.each([
    [{ ...valid, amount: 0 }, "amount"],
    [{ ...valid, amount: 10.5 }, "amount"],
    [{ ...valid, amount: "100" }, "amount"],
    [{ ...valid, currency: "EUR" }, "currency"],
    [{ ...valid, description: "  " }, "description"],
    [{ ...valid, period: { start: "2025-03-31", end: "2025-03-01" } }, "period.end"],
    [{ ...valid, period: { start: "March", end: "2025-03-01" } }, "period.start"],
    [{ ...valid, mode: "staging" }, "mode"],
    [{ ...valid, amnt: 1 }, ""],
  ])("refuses %j (%s)", (body, field) => {
    const result = createBillingSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join("."))).toContain(field);
  });

  it("makes bil. ids", () => {
    expect(newBillingId()).toMatch(new RegExp(`^${BILLING_ID_PREFIX.replace(".", "\\.")}[1-9A-Za-z]{17}$`));
  });
});
