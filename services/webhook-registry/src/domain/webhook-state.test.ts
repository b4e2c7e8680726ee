import { describe, expect, it } from "vitest";
import type { AppError } from "@cardhold/platform";
import { nextStatus, type WebhookAction, type WebhookStatus } from "./webhook-state";

describe("webhook states", () => {
  it.each([
    ["created", "enable", "enabled"],
    ["enabled", "enable", "enabled"], // idempotent
    ["enabled", "disable", "disabled"],
    ["disabled", "enable", "enabled"],
    ["disabled", "disable", "disabled"], // idempotent
  ] as const)("%s + %s → %s", (from, action, to) => {
    expect(nextStatus(from, action, false)).toBe(to);
  });

  it.each([
    ["created", "disable", false, /created webhook cannot be disabled/],
    ["enabled", "enable", true, /default webhook cannot be enabled/],
    ["enabled", "disable", true, /default webhook cannot be disabled/],
  ] as Array<[WebhookStatus, WebhookAction, boolean, RegExp]>)(
    "%s + %s (default: %s) → 422",
    (from, action, isDefault, message) => {
      const attempt = () => nextStatus(from, action, isDefault);
      expect(attempt).toThrow(message);
      expect(attempt).toThrow(expect.objectContaining({ statusCode: 422, code: "invalid-state" }) as AppError);
    },
  );
});
