import { describe, expect, it } from "vitest";
import {
  applyChange,
  changedFields,
  checkUpdateAllowed,
  type SettingsChange,
  type WebhookSettings,
} from "./webhook-update";

const current: WebhookSettings = {
  name: "default",
  description: null,
  url: "https://hooks.example.com/all",
  events: [],
  apiVersion: null,
  timeoutDefault: null,
  metadata: { team: "ops", tier: 1 },
  signatureHeaders: [],
  standIn: null,
};

const standIn: WebhookSettings["standIn"] = { rules: [{ name: "small", approveUpTo: 2_000 }], otherwise: "decline" };

describe("what may change on the default webhook", () => {
  it.each([
    [{}, []],
    [{ url: "https://hooks.example.com/new" }, []],
    [{ description: "everything" }, []],
    [{ metadata: { team: "risk" } }, []],
    [{ timeoutDefault: "approve" }, []],
    [{ signatureHeaders: ["Acme-Signature"] }, []],
    [{ standIn }, []],
    [{ url: "https://x.example.com", description: "d", metadata: {}, timeoutDefault: "decline" }, []],
    [{ name: "default" }, []], // sent with its current value: no change
    [{ metadata: { tier: 1, team: "ops" } }, []], // same object, other key order
    [{ name: "renamed" }, ["name"]],
    [{ events: ["card.transaction.created"] }, ["events"]],
    [{ apiVersion: "2024-01-01" }, ["apiVersion"]],
    [{ name: "x", events: ["card.transaction.created"], url: "https://ok.example.com" }, ["name", "events"]],
  ] as Array<[SettingsChange, string[]]>)("%j refuses %j", (change, refused) => {
    const attempt = () => checkUpdateAllowed(true, current, change);
    if (refused.length === 0) {
      expect(attempt).not.toThrow();
    } else {
      expect(attempt).toThrow(
        expect.objectContaining({
          statusCode: 422,
          code: "invalid-state",
          errors: refused.map((path) => expect.objectContaining({ path })),
        }),
      );
    }
  });

  it("lets any other webhook change any field", () => {
    expect(() =>
      checkUpdateAllowed(false, current, { name: "x", events: ["card.transaction.created"], apiVersion: "2024-01-01" }),
    ).not.toThrow();
  });
});

describe("a partial update", () => {
  it.each([
    [{}, [], current],
    [{ name: "renamed" }, ["name"], { ...current, name: "renamed" }],
    [{ description: "d", url: current.url }, ["description"], { ...current, description: "d" }],
    [{ metadata: {} }, ["metadata"], { ...current, metadata: {} }],
    [{ signatureHeaders: [] }, [], current],
    [
      { signatureHeaders: ["Acme-Signature"] },
      ["signatureHeaders"],
      { ...current, signatureHeaders: ["Acme-Signature"] },
    ],
    [{ standIn: null }, [], current],
    [{ standIn }, ["standIn"], { ...current, standIn }],
    [
      { events: ["a", "b"], apiVersion: "2024-02-29" },
      ["events", "apiVersion"],
      { ...current, events: ["a", "b"], apiVersion: "2024-02-29" },
    ],
  ] as Array<[SettingsChange, string[], WebhookSettings]>)("%j changes %j", (change, fields, after) => {
    expect(changedFields(current, change)).toEqual(fields);
    expect(applyChange(current, change)).toEqual(after);
  });

  it("removes stand-in rules with null and keeps them when left out", () => {
    const withRules = { ...current, standIn };
    expect(changedFields(withRules, { standIn: null })).toEqual(["standIn"]);
    expect(applyChange(withRules, { standIn: null }).standIn).toBeNull();
    expect(applyChange(withRules, { name: "renamed" }).standIn).toEqual(standIn);
  });
});
