import { describe, expect, it } from "vitest";
import type { FieldValue } from "./iso8583/packer";
import {
  answerMtiOf,
  classOf,
  FormatError,
  maskPan,
  networkReference,
  readTransaction,
  subelementsOf,
  type MessageClass,
} from "./messages";

const base: Record<number, FieldValue> = {
  2: "5060990000000000001",
  3: "000000",
  4: "000000001000",
  11: "000042",
  37: "123456789012",
  41: "TERM0001",
  49: "566",
};
const read = (fields: Record<number, FieldValue>, messageClass: MessageClass = "010") =>
  readTransaction({ mti: `${messageClass}0`, fields }, messageClass);

describe("reading a transaction message", () => {
  it("reads what the README's field table lists", () => {
    const m = read({
      ...base,
      14: "2712",
      18: "5411",
      22: "051",
      28: "D00000150",
      32: "123456",
      39: "00",
      42: "MERCHANT0000001",
      43: "SHOP  LAGOS NG                          ",
      48: "920312361011",
      52: new Uint8Array(8),
    });
    expect(m).toMatchObject({
      pan: "5060990000000000001",
      amount: 1_000,
      fee: 150,
      currency: "566",
      stan: "000042",
      rrn: "123456789012",
      terminalId: "TERM0001",
      merchantId: "MERCHANT0000001",
      cardAcceptorNameLocation: "SHOP  LAGOS NG",
      mcc: "5411",
      posEntryMode: "051",
      expiry: "2712",
      cvv2: "123",
      partialApprovalSupported: true,
      acquirerId: "123456",
      adviceResponseCode: "00",
    });
  });

  it("a fee with sign C is none; no field 41 is 8 spaces; no field 4 is 0", () => {
    const { 4: _amount, 41: _terminal, ...rest } = base;
    expect(read({ ...rest, 28: "C00000150" })).toMatchObject({ fee: 0, amount: 0, terminalId: "        " });
  });

  it("a reversal's original (field 90) and replacement amounts (field 95)", () => {
    const m = read(
      {
        ...base,
        90: `0100000041${"0".repeat(32)}`,
        95: `000000000600${"0".repeat(12)}D00000020C00000000`,
      },
      "042",
    );
    expect(m.original).toEqual({ mti: "0100", stan: "000041" });
    expect(m.replacement).toEqual({ amount: 600, fee: 20 });
  });

  it.each<[string, Record<number, FieldValue>, MessageClass, number | undefined]>([
    ["no PAN", { ...base, 2: undefined as unknown as string }, "010", 2],
    ["a PAN of 11 digits", { ...base, 2: "12345678901" }, "010", 2],
    ["no STAN", { ...base, 11: undefined as unknown as string }, "010", 11],
    ["no RRN", { ...base, 37: undefined as unknown as string }, "010", 37],
    ["an expiry month 13", { ...base, 14: "2713" }, "010", 14],
    ["no currency on an authorization", { ...base, 49: undefined as unknown as string }, "010", 49],
    ["no field 90 on a reversal", base, "040", 90],
    ["field 48 cut inside a subelement", { ...base, 48: "9205123" }, "010", 48],
    ["a CVV2 of letters", { ...base, 48: "9203abc" }, "010", 48],
  ])("a format error: %s", (_case, fields, messageClass, field) => {
    const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    expect(() => read(defined, messageClass)).toThrow(FormatError);
    try {
      read(defined, messageClass);
    } catch (error) {
      expect((error as FormatError).field).toBe(field);
    }
  });
});

describe("message helpers", () => {
  it("field 48 subelements", () => {
    expect(subelementsOf("920312361011")).toEqual(
      new Map([
        ["92", "123"],
        ["61", "1"],
      ]),
    );
    expect(subelementsOf(undefined)).toEqual(new Map());
  });

  it.each([
    ["0100", "010"],
    ["0101", "010"],
    ["0120", "012"],
    ["0200", "020"],
    ["0401", "040"],
    ["0421", "042"],
    ["0102", undefined],
    ["0110", undefined],
    ["0300", undefined],
    ["0800", undefined],
  ])("the class of %s is %s", (mti, messageClass) => {
    expect(classOf(mti)).toBe(messageClass);
  });

  it.each([
    ["0100", "0110"],
    ["0101", "0110"],
    ["0121", "0130"],
    ["0420", "0430"],
    ["0800", "0810"],
    ["0300", "0310"],
    ["0110", undefined],
    ["0810", undefined],
  ])("%s is answered %s", (mti, answer) => {
    expect(answerMtiOf(mti)).toBe(answer);
  });

  it("the network reference: class, RRN, STAN and terminal, only letters and digits", () => {
    expect(networkReference("010", "12345678901 ", "000042", "TERM 01 ")).toBe("010-12345678901-000042-TERM01");
    expect(networkReference("020", "123456789012", "000042", "        ")).toBe("020-123456789012-000042");
  });

  it("masks a PAN to its first 6 and last 4 digits", () => {
    expect(maskPan("5060990000000000001")).toBe("506099*********0001");
    expect(maskPan("5399831234567890")).toBe("539983******7890");
  });
});
