import { describe, expect, it } from "vitest";
import { additionalAmount, answerTo, approvalCodeOf } from "./answers";

describe("answers", () => {
  it("echo the request's identifying fields, add 38, 39 and 54, and leave out the rest", () => {
    const request = {
      mti: "0101",
      fields: {
        2: "5060990000000000001",
        3: "000000",
        4: "000000005000",
        11: "000042",
        14: "2712",
        37: "123456789012",
        41: "TERM0001",
        48: "9203123",
        49: "566",
        52: new Uint8Array(8),
      },
    };
    const answer = answerTo(request, {
      code: "10",
      approvalCode: "123456",
      approvedAmount: 3_000,
      additionalAmounts: additionalAmount("57", "566", 5_000),
    });
    expect(answer).toEqual({
      mti: "0110",
      fields: {
        2: "5060990000000000001",
        3: "000000",
        4: "000000003000",
        11: "000042",
        37: "123456789012",
        38: "123456",
        39: "10",
        41: "TERM0001",
        49: "566",
        54: "0057566C000000005000",
      },
    });
  });

  it("field 54: a negative balance is D", () => {
    expect(additionalAmount("02", "840", -250)).toBe("0002840D000000000250");
  });

  it("the approval code is 6 digits, the same for the same authorization", () => {
    expect(approvalCodeOf("c.auth.1")).toMatch(/^\d{6}$/);
    expect(approvalCodeOf("c.auth.1")).toBe(approvalCodeOf("c.auth.1"));
    expect(approvalCodeOf("c.auth.1")).not.toBe(approvalCodeOf("c.auth.2"));
  });
});
