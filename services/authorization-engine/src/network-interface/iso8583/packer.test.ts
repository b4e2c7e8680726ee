import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ISO87B_FIELDS, type FieldSpec } from "./fields";
import { Iso8583Error, pack, unpack, type FieldValue, type IsoMessage } from "./packer";

const hex = (text: string) => new Uint8Array(Buffer.from(text.replace(/\s+/g, ""), "hex"));
const ascii = (text: string) => Buffer.from(text, "latin1").toString("hex");

/** Byte layouts worked out by hand from jPOS's ISO87BPackager (the jPOS integration test checks them on the wire). */
const VECTORS: Array<[string, IsoMessage, string]> = [
  [
    "an echo: secondary bitmap for field 70, BCD numerics",
    { mti: "0800", fields: { 7: "1125103000", 11: "000001", 70: "301" } },
    "0800 8220000000000000 0400000000000000 1125103000 000001 0301",
  ],
  [
    "an authorization: LLNUM PAN right-padded, n3 left-padded, amount with a sign, ASCII, LLLCHAR, binary",
    {
      mti: "0100",
      fields: {
        2: "5060990000000000001",
        4: "000000001000",
        22: "051",
        28: "D00000150",
        37: "123456789012",
        41: "TERM1   ",
        48: "9203123",
        52: hex("0123456789abcdef"),
      },
    },
    `0100 5000041008811000 19 50609900000000000010 000000001000 0051 4400000150 ${ascii("123456789012")}
     ${ascii("TERM1   ")} 0007 ${ascii("9203123")} 0123456789abcdef`,
  ],
  [
    "an answer with a 16-digit PAN (even: no padding) and the response code",
    { mti: "0110", fields: { 2: "5060991234567890", 11: "000123", 39: "00" } },
    `0110 4020000002000000 16 5060991234567890 000123 ${ascii("00")}`,
  ],
];

describe("ISO87B packing (jPOS ISO87BPackager layout)", () => {
  it.each(VECTORS)("%s", (_case, message, bytes) => {
    expect(Buffer.from(pack(message)).toString("hex")).toBe(Buffer.from(hex(bytes)).toString("hex"));
    expect(unpack(hex(bytes))).toEqual(message);
  });

  it("pads what is shorter than a fixed field: numerics with leading zeros, text with spaces", () => {
    const packed = pack({ mti: "0100", fields: { 4: "1000", 41: "T1" } });
    expect(unpack(packed).fields).toEqual({ 4: "000000001000", 41: "T1      " });
  });

  it.each<[string, IsoMessage, RegExp]>([
    ["an MTI that is not 4 digits", { mti: "100", fields: {} }, /MTI/],
    ["a field that does not exist", { mti: "0100", fields: { 1: "x" } }, /field 1 does not exist/],
    ["field 129", { mti: "0100", fields: { 129: "x" } }, /field 129 does not exist/],
    ["letters in a numeric field", { mti: "0100", fields: { 4: "12a4" } }, /field 4 .*digits/],
    ["a numeric field too long", { mti: "0100", fields: { 11: "1234567" } }, /field 11 .*at most 6 digits/],
    ["a PAN over 19 digits", { mti: "0100", fields: { 2: "1".repeat(20) } }, /field 2 .*at most 19/],
    ["text too long", { mti: "0100", fields: { 39: "000" } }, /field 39 .*at most 2 characters/],
    ["text that is not ASCII", { mti: "0100", fields: { 43: "café" } }, /field 43/],
    ["a PIN block of 7 bytes", { mti: "0100", fields: { 52: new Uint8Array(7) } }, /field 52 .*8 bytes/],
    ["a PIN block as text", { mti: "0100", fields: { 52: "0123456789abcdef" } }, /field 52 .*8 bytes/],
    ["bytes in a text field", { mti: "0100", fields: { 37: new Uint8Array(12) } }, /field 37 .*text/],
    ["an amount without a sign", { mti: "0100", fields: { 28: "000000150" } }, /field 28 .*C or D/],
  ])("refuses to pack %s, naming the field and never its value", (_case, message, problem) => {
    expect(() => pack(message)).toThrow(problem);
    try {
      pack(message);
    } catch (error) {
      expect(error).toBeInstanceOf(Iso8583Error);
      const value = Object.values(message.fields)[0];
      if (typeof value === "string" && value.length > 3) expect((error as Error).message).not.toContain(value);
    }
  });

  it.each<[string, string, RegExp, number | undefined]>([
    ["fewer bytes than an MTI and a bitmap", "0100 00", /too short/, 0],
    ["an MTI with a nibble that is not a digit", "01a0 0000000000000000", /MTI/, 0],
    ["a secondary bitmap cut short", "0800 8000000000000000 0000", /secondary bitmap/, 1],
    ["a fixed field cut short", "0100 0020000000000000 0000", /field 11 .*ends inside/, 11],
    ["a BCD field holding a nibble A–F", "0100 0020000000000000 00001f", /field 11 .*not BCD/, 11],
    ["a length prefix above the field's maximum", "0100 4000000000000000 20 1234", /field 2 .*above the maximum 19/, 2],
    ["a length prefix that is not BCD", "0100 4000000000000000 1a 1234", /field 2 .*not BCD/, 2],
    ["a variable field cut short", "0100 4000000000000000 16 1234", /field 2 .*ends inside/, 2],
    ["a padding nibble that is not 0", "0100 0000040000000000 1051", /field 22 .*not BCD/, 22],
    ["bytes after the last field", "0100 0020000000000000 000001 ff", /1 bytes follow/, undefined],
  ])("refuses to read %s", (_case, bytes, problem, field) => {
    expect(() => unpack(hex(bytes))).toThrow(problem);
    try {
      unpack(hex(bytes));
    } catch (error) {
      expect((error as Iso8583Error).field).toBe(field);
    }
  });

  it("keeps what it read before a bad field, so that the answer can still name the message", () => {
    const bytes = hex(`0100 0020000000200000 000042 ${ascii("1234")}`);
    try {
      unpack(bytes);
      expect.unreachable();
    } catch (error) {
      expect((error as Iso8583Error).partial).toEqual({ mti: "0100", fields: { 11: "000042" } });
    }
  });
});

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
const printable = (min: number, max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: min,
    maxLength: max,
  });

/** A value the field holds as unpack gives it back: fixed fields at their full length. */
function valueOf(spec: FieldSpec): fc.Arbitrary<FieldValue> {
  switch (spec.kind) {
    case "n":
      return digits(spec.length, spec.length);
    case "llnum":
      return digits(0, spec.length);
    case "amount":
      return fc.tuple(fc.constantFrom("C", "D"), digits(spec.length - 1, spec.length - 1)).map(([s, d]) => s + d);
    case "an":
      return printable(spec.length, spec.length);
    case "llchar":
    case "lllchar":
      return printable(0, Math.min(spec.length, 120));
    case "b":
      return fc.uint8Array({ minLength: spec.length, maxLength: spec.length });
  }
}

const fieldNumbers = Object.keys(ISO87B_FIELDS).map(Number);
const message: fc.Arbitrary<IsoMessage> = fc
  .record({
    mti: digits(4, 4),
    numbers: fc.uniqueArray(fc.constantFrom(...fieldNumbers), { maxLength: 20 }),
  })
  .chain(({ mti, numbers }) =>
    fc
      .tuple(...numbers.map((f) => valueOf(ISO87B_FIELDS[f]!)))
      .map((values) => ({ mti, fields: Object.fromEntries(numbers.map((f, i) => [f, values[i]!])) })),
  );

describe("ISO87B packing, as properties", () => {
  it("unpack(pack(m)) = m: every field of every layout comes back as it went", () => {
    fc.assert(
      fc.property(message, (m) => {
        expect(unpack(pack(m))).toEqual(m);
      }),
    );
  });

  it("pack(unpack(x)) = x: bytes read and written again are the same bytes", () => {
    fc.assert(
      fc.property(message, (m) => {
        const bytes = pack(m);
        expect(Buffer.from(pack(unpack(bytes))).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it("any bytes either read as a message or fail with an Iso8583Error, never anything else", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          expect(/^\d{4}$/.test(unpack(bytes).mti)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(Iso8583Error);
        }
      }),
    );
  });
});
