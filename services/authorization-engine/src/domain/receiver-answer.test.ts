import { describe, expect, it } from "vitest";
import { answerOf } from "./receiver-answer";

const ok = (body: unknown) => answerOf({ httpStatus: 200, body, error: null });

describe("the receiver's answer", () => {
  it.each([
    [{ action: "approve" }, { action: "approve" }],
    [
      { action: "decline", code: "insufficient-funds" },
      { action: "decline", code: "insufficient-funds" },
    ],
    [
      { action: "approve", metadata: { a: { b: [1, 2] } } },
      { action: "approve", metadata: { a: { b: [1, 2] } } },
    ],
    [
      { action: "approve", amount: 3_000 },
      { action: "approve", amount: 3_000 },
    ],
    [
      { action: "decline", code: "insufficient-funds", amount: 3_000 },
      { action: "decline", code: "insufficient-funds" },
    ],
    [
      { action: "approve", amount: 0 },
      { action: "unusable", reason: "invalid-response" },
    ],
    [
      { action: "approve", amount: 10.5 },
      { action: "unusable", reason: "invalid-response" },
    ],
    [
      { action: "approve", amount: "3000" },
      { action: "unusable", reason: "invalid-response" },
    ],
    [{ action: "maybe" }, { action: "unusable", reason: "invalid-response" }],
    [null, { action: "unusable", reason: "invalid-response" }],
  ])("%j means %j", (body, answer) => {
    expect(ok(body)).toEqual(answer);
  });

  it("is unusable when its metadata nests 10,000 levels deep, without overflowing the stack", () => {
    let metadata: unknown = { leaf: true };
    for (let i = 0; i < 10_000; i++) metadata = { inner: metadata };
    expect(ok({ action: "approve", metadata })).toEqual({ action: "unusable", reason: "invalid-response" });
  });

  it("is unusable without a 2xx status, and names what went wrong without one", () => {
    expect(answerOf({ httpStatus: 500, body: { action: "approve" }, error: null })).toEqual({
      action: "unusable",
      reason: "webhook-error",
    });
    expect(answerOf({ httpStatus: null, body: null, error: "timeout" })).toEqual({
      action: "unusable",
      reason: "timeout-error",
    });
    expect(answerOf({ httpStatus: null, body: null, error: "platform-overloaded" })).toEqual({
      action: "unusable",
      reason: "platform-overloaded",
    });
  });
});
