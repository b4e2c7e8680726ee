import { describe, expect, it } from "vitest";
import { isValidNuban } from "../domain/nuban";
import { sandboxAccountNames } from "../banks/account-names";
import { findBank } from "../domain/banks";
import { sandboxSessionId, sandboxTransferBehaviour } from "./sandbox-rail-rules";

describe("the sandbox rail's test numbers (the README's, at GTBank)", () => {
  it.each([
    ["0123422229", "slow"],
    ["0123433333", "pending-then-succeed"],
    ["0123444447", "pending-then-fail"],
    ["0123455551", "fail"],
    ["0123456785", "succeed"],
    ["0123400001", "succeed"],
  ])("%s → %s", (accountNumber, behaviour) => {
    expect(isValidNuban("058", accountNumber)).toBe(true);
    expect(sandboxTransferBehaviour(accountNumber)).toBe(behaviour);
  });

  it("leaves the name enquiry's numbers to it: 0000 has no account, 1111's bank does not answer", async () => {
    const gtbank = findBank("058")!;
    const signal = new AbortController().signal;
    await expect(sandboxAccountNames.resolve(gtbank, "0123400001", signal)).resolves.toBeUndefined();
    await expect(sandboxAccountNames.resolve(gtbank, "0123411115", signal)).rejects.toThrow(/did not answer/);
    await expect(sandboxAccountNames.resolve(gtbank, "0123455551", signal)).resolves.toEqual(expect.any(String));
  });
});

describe("the sandbox's session ids", () => {
  it("are 30 digits, the same for the same payout, different for another", () => {
    const id = sandboxSessionId("p.2tXNjMhytgx7hCxu9");
    expect(id).toMatch(/^999999\d{24}$/);
    expect(sandboxSessionId("p.2tXNjMhytgx7hCxu9")).toBe(id);
    expect(sandboxSessionId("p.2tXNjMhytgx7hCxuA")).not.toBe(id);
  });
});
