import { describe, expect, it } from "vitest";
import { createRequestSchema, rollRequestSchema, updateRequestSchema } from "./webhook-request";

const live = createRequestSchema({ mode: "live", allowPrivateTargets: false });
const valid = { name: "transactions", events: ["card.transaction.created"], url: "https://hooks.example.com/x" };
const paths = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) => [
  ...new Set((result.error?.issues ?? []).map((i) => i.path.join("."))),
];

describe("webhook request bodies", () => {
  it.each([
    [valid, []],
    [
      {
        ...valid,
        apiVersion: "2024-02-29",
        description: "d",
        metadata: { a: 1 },
        timeoutDefault: "approve",
        signingKey: "x".repeat(16),
      },
      [],
    ],
    [{}, ["name", "events", "url"]],
    [{ ...valid, events: [] }, ["events"]],
    [{ ...valid, events: ["card.nope"] }, ["events.0"]],
    [{ ...valid, events: ["card.transaction.created", "card.transaction.created"] }, ["events"]],
    [{ ...valid, url: "ftp://hooks.example.com" }, ["url"]],
    [{ ...valid, url: "http://192.168.0.10/x" }, ["url"]],
    [{ ...valid, apiVersion: "2023-02-30" }, ["apiVersion"]],
    [{ ...valid, apiVersion: "14-03-2023" }, ["apiVersion"]],
    [{ ...valid, signingKey: "short" }, ["signingKey"]],
    [{ ...valid, signingKey: "x".repeat(257) }, ["signingKey"]],
    [{ ...valid, timeoutDefault: "maybe" }, ["timeoutDefault"]],
    [{ ...valid, metadata: { nested: { no: true } } }, ["metadata.nested"]],
    [{ ...valid, signatureHeaders: [] }, []],
    [{ ...valid, signatureHeaders: ["Acme-Signature", "X-Acme-Signature"] }, []],
    [{ ...valid, signatureHeaders: ["Acme Signature"] }, ["signatureHeaders.0"]],
    [{ ...valid, signatureHeaders: ["Acme-Signature", "Service-Signature"] }, ["signatureHeaders.1"]],
    [{ ...valid, signatureHeaders: ["Acme-Signature", "ACME-SIGNATURE"] }, ["signatureHeaders"]],
    [{ ...valid, signatureHeaders: "Acme-Signature" }, ["signatureHeaders"]],
    [
      { name: "", events: "card.transaction.created", url: "nope", apiVersion: "x", signingKey: 1 },
      ["name", "events", "url", "apiVersion", "signingKey"],
    ],
  ] as Array<[Record<string, unknown>, string[]]>)("create %j → problems at %j", (body, expected) => {
    expect(paths(live.safeParse(body)).sort()).toEqual([...expected].sort());
  });

  it("names the unknown event kind", () => {
    const result = live.safeParse({ ...valid, events: ["card.transaction.created", "card.nope"] });
    expect(result.error?.issues[0]?.message).toContain('unknown event kind "card.nope"');
  });

  it("applies the mode's URL rule: test mode and the operator setting allow internal targets", () => {
    const body = { ...valid, url: "http://127.0.0.1:4000/x" };
    expect(live.safeParse(body).success).toBe(false);
    expect(createRequestSchema({ mode: "test", allowPrivateTargets: false }).safeParse(body).success).toBe(true);
    expect(createRequestSchema({ mode: "live", allowPrivateTargets: true }).safeParse(body).success).toBe(true);
  });

  it.each([
    [{}, []],
    [{ url: "https://hooks.example.com/y" }, []],
    [{ url: "http://10.0.0.1/y" }, ["url"]],
    [{ signingKey: "a-new-signing-key-0123" }, ["signingKey"]],
    [{ events: [] }, ["events"]],
    [{ signatureHeaders: [] }, []],
    [{ signatureHeaders: ["Acme-Signature"] }, []],
    [{ signatureHeaders: ["content-length"] }, ["signatureHeaders.0"]],
  ] as Array<[Record<string, unknown>, string[]]>)("update %j → problems at %j", (body, expected) => {
    expect(paths(updateRequestSchema({ mode: "live", allowPrivateTargets: false }).safeParse(body))).toEqual(expected);
  });

  it.each([
    [{}, true],
    [{ signingKey: "a-new-signing-key-0123" }, true],
    [{ signingKey: "short" }, false],
    [{ other: 1 }, false],
  ] as const)("roll %j valid: %s", (body, ok) => {
    expect(rollRequestSchema.safeParse(body).success).toBe(ok);
  });
});
