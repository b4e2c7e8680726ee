import { describe, expect, it } from "vitest";
import { AppError } from "@cardhold/platform";
import { webhookUrlProblem } from "./webhook-url";
import { checkDefaultUpdate, nextStatus } from "./webhook-state";

describe("webhook URLs", () => {
  it.each([
    ["https://hooks.example.com/cardhold", "live", false, undefined],
    ["http://hooks.example.com", "live", false, undefined],
    ["ftp://hooks.example.com", "test", false, "http or https"],
    ["not a url", "test", false, "must be a URL"],
    ["https://user:pw@hooks.example.com", "test", false, "credentials"],
    ["http://localhost:4000/hook", "test", false, undefined],
    ["http://127.0.0.1:4000/hook", "test", false, undefined],
    ["http://localhost:4000/hook", "live", false, "private"],
    ["http://127.0.0.1/hook", "live", false, "private"],
    ["http://10.1.2.3/hook", "live", false, "private"],
    ["http://172.16.0.1/hook", "live", false, "private"],
    ["http://172.32.0.1/hook", "live", false, undefined],
    ["http://192.168.1.1/hook", "live", false, "private"],
    ["http://169.254.169.254/latest/meta-data", "live", false, "private"],
    ["http://0.0.0.0/hook", "live", false, "private"],
    ["http://[::1]/hook", "live", false, "private"],
    ["http://[fe80::1]/hook", "live", false, "private"],
    ["http://[fd00::1]/hook", "live", false, "private"],
    ["http://[::ffff:127.0.0.1]/hook", "live", false, "private"],
    ["http://[2001:db8::1]/hook", "live", false, undefined],
    ["http://10.1.2.3/hook", "live", true, undefined],
  ] as const)("%s in %s mode (allow private: %s)", (url, mode, allow, problem) => {
    const result = webhookUrlProblem(url, mode, allow);
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toContain(problem);
  });
});

describe("webhook states", () => {
  it.each([
    ["created", "enable", "enabled"],
    ["enabled", "enable", "enabled"],
    ["enabled", "disable", "disabled"],
    ["disabled", "enable", "enabled"],
    ["disabled", "disable", "disabled"],
    ["created", "disable", "disabled"],
  ] as const)("%s + %s → %s", (from, action, to) => {
    expect(nextStatus(from, action, false)).toBe(to);
  });

  it("refuses to enable or disable the default webhook, or change its name or events", () => {
    for (const action of ["enable", "disable"] as const) {
      expect(() => nextStatus("enabled", action, true)).toThrow(AppError);
    }
    expect(() => checkDefaultUpdate(true, { events: ["card.transaction.created"] })).toThrow(/cannot change/);
    expect(() => checkDefaultUpdate(true, {})).not.toThrow();
    expect(() => checkDefaultUpdate(false, { name: "x" })).not.toThrow();
  });
});
