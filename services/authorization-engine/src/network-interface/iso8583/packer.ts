/**
 * Packs and unpacks ISO 8583:1987 messages in the ISO87B layout (fields.ts): the MTI (4 digits, BCD), a binary
 * bitmap (8 bytes, 16 when a field above 64 is present: bit 1 says so), then the present fields in order. Pure.
 * Errors name the field and what is wrong with it, never its value (a PAN, a PIN block).
 */
import { bcdByteLength, readBcd, writeBcd } from "./bcd";
import { ISO87B_FIELDS, type FieldSpec } from "./fields";

export type FieldValue = string | Uint8Array;

export interface IsoMessage {
  /** Message type indicator: 4 digits, e.g. "0100". */
  mti: string;
  /** Present fields by number (2–128): bytes for binary fields (52, 64, 65, 96, 128), text for every other. */
  fields: Record<number, FieldValue>;
}

/** A message that cannot be packed or read; `partial` holds what was read before the problem (for an answer). */
export class Iso8583Error extends Error {
  constructor(
    message: string,
    readonly field?: number,
    readonly partial?: Partial<IsoMessage>,
  ) {
    super(message);
    this.name = "Iso8583Error";
  }
}

const DIGITS = /^\d*$/;
/** Printable ASCII: what an IF_CHAR / LLCHAR field may hold (jPOS would pass any byte; we accept text only). */
const ASCII = /^[\x20-\x7e]*$/;

function specOf(field: number): FieldSpec {
  const spec = ISO87B_FIELDS[field];
  if (!spec) throw new Iso8583Error(`field ${field} does not exist (2 to 128)`, field);
  return spec;
}

/** The bytes of one field's value, prefix included. */
function packField(field: number, value: FieldValue): Uint8Array {
  const spec = specOf(field);
  const fail = (why: string) => new Iso8583Error(`field ${field} (${spec.name}): ${why}`, field);
  if (spec.kind === "b") {
    if (!(value instanceof Uint8Array) || value.length !== spec.length) throw fail(`must be ${spec.length} bytes`);
    return Uint8Array.from(value);
  }
  if (typeof value !== "string") throw fail("must be text");
  switch (spec.kind) {
    case "n": {
      if (!DIGITS.test(value) || value.length > spec.length) throw fail(`must be at most ${spec.length} digits`);
      const digits = value.padStart(spec.length, "0");
      const out = new Uint8Array(bcdByteLength(spec.length));
      writeBcd(digits, spec.leftPadded!, out, 0);
      return out;
    }
    case "llnum": {
      if (!DIGITS.test(value) || value.length > spec.length) throw fail(`must be at most ${spec.length} digits`);
      const out = new Uint8Array(1 + bcdByteLength(value.length));
      writeBcd(String(value.length).padStart(2, "0"), true, out, 0);
      writeBcd(value, spec.leftPadded!, out, 1);
      return out;
    }
    case "amount": {
      const digits = value.slice(1);
      if (!/^[CD]$/.test(value.slice(0, 1)) || !DIGITS.test(digits) || digits.length > spec.length - 1)
        throw fail(`must be C or D and at most ${spec.length - 1} digits`);
      const out = new Uint8Array(1 + bcdByteLength(spec.length - 1));
      out[0] = value.charCodeAt(0);
      writeBcd(digits.padStart(spec.length - 1, "0"), spec.leftPadded!, out, 1);
      return out;
    }
    case "an": {
      if (!ASCII.test(value) || value.length > spec.length) throw fail(`must be at most ${spec.length} characters`);
      return Buffer.from(value.padEnd(spec.length, " "), "latin1");
    }
    case "llchar":
    case "lllchar": {
      if (!ASCII.test(value) || value.length > spec.length) throw fail(`must be at most ${spec.length} characters`);
      const prefix = spec.kind === "llchar" ? 1 : 2;
      const out = new Uint8Array(prefix + value.length);
      writeBcd(String(value.length).padStart(prefix * 2, "0"), true, out, 0);
      out.set(Buffer.from(value, "latin1"), prefix);
      return out;
    }
  }
}

/** The message's bytes (without the 2-byte frame length). */
export function pack(message: IsoMessage): Uint8Array {
  if (!/^\d{4}$/.test(message.mti)) throw new Iso8583Error("the MTI must be 4 digits", 0);
  const numbers = Object.keys(message.fields)
    .map(Number)
    .sort((a, c) => a - c);
  for (const field of numbers) specOf(field);
  const secondary = numbers.some((f) => f > 64);
  const bitmap = new Uint8Array(secondary ? 16 : 8);
  const set = (bit: number) => (bitmap[(bit - 1) >> 3]! |= 0x80 >> ((bit - 1) & 7));
  if (secondary) set(1);
  numbers.forEach(set);
  const mti = new Uint8Array(2);
  writeBcd(message.mti, true, mti, 0);
  const parts = [mti, bitmap, ...numbers.map((f) => packField(f, message.fields[f]!))];
  return Buffer.concat(parts);
}

/** Reads one field at `offset`: its value and where the next one starts. */
function unpackField(field: number, bytes: Uint8Array, offset: number): { value: FieldValue; next: number } {
  const spec = specOf(field);
  const fail = (why: string) => new Iso8583Error(`field ${field} (${spec.name}): ${why}`, field);
  const need = (count: number) => {
    if (offset + count > bytes.length) throw fail("the message ends inside it");
  };
  const bcd = (at: number, digits: number, leftPadded: boolean) => {
    need(at - offset + bcdByteLength(digits));
    const text = readBcd(bytes, at, digits, leftPadded);
    if (text === undefined) throw fail("is not BCD digits (a nibble above 9, or a padding nibble not 0)");
    return text;
  };
  const ascii = (at: number, count: number) => {
    need(at - offset + count);
    return Buffer.from(bytes.subarray(at, at + count)).toString("latin1");
  };
  const lengthPrefix = (digits: number) => {
    const length = Number(bcd(offset, digits, true));
    if (length > spec.length) throw fail(`its length ${length} is above the maximum ${spec.length}`);
    return length;
  };
  switch (spec.kind) {
    case "b":
      need(spec.length);
      return { value: Uint8Array.from(bytes.subarray(offset, offset + spec.length)), next: offset + spec.length };
    case "n":
      return { value: bcd(offset, spec.length, spec.leftPadded!), next: offset + bcdByteLength(spec.length) };
    case "llnum": {
      const length = lengthPrefix(2);
      return { value: bcd(offset + 1, length, spec.leftPadded!), next: offset + 1 + bcdByteLength(length) };
    }
    case "amount": {
      const sign = ascii(offset, 1);
      if (sign !== "C" && sign !== "D") throw fail("its sign is not C or D");
      const digits = bcd(offset + 1, spec.length - 1, spec.leftPadded!);
      return { value: sign + digits, next: offset + 1 + bcdByteLength(spec.length - 1) };
    }
    case "an":
      return { value: ascii(offset, spec.length), next: offset + spec.length };
    case "llchar":
    case "lllchar": {
      const prefix = spec.kind === "llchar" ? 1 : 2;
      const length = lengthPrefix(prefix * 2);
      return { value: ascii(offset + prefix, length), next: offset + prefix + length };
    }
  }
}

function presentFields(bitmap: Uint8Array): number[] {
  const present: number[] = [];
  for (let bit = 2; bit <= bitmap.length * 8; bit++)
    if (bitmap[(bit - 1) >> 3]! & (0x80 >> ((bit - 1) & 7))) present.push(bit);
  return present;
}

/**
 * The message in `bytes` (one frame's content). Throws Iso8583Error for anything that is not exactly one ISO87B
 * message, bytes left over included; its `partial` holds the MTI and the fields read before the problem.
 */
export function unpack(bytes: Uint8Array): IsoMessage {
  if (bytes.length < 10) throw new Iso8583Error("too short for an MTI and a bitmap", 0);
  const mti = readBcd(bytes, 0, 4, true);
  if (mti === undefined) throw new Iso8583Error("the MTI is not 4 BCD digits", 0);
  const secondary = (bytes[2]! & 0x80) !== 0;
  const bitmapEnd = 2 + (secondary ? 16 : 8);
  if (bytes.length < bitmapEnd) throw new Iso8583Error("the message ends inside the secondary bitmap", 1, { mti });
  const fields: Record<number, FieldValue> = {};
  let offset = bitmapEnd;
  for (const field of presentFields(bytes.subarray(2, bitmapEnd))) {
    try {
      const { value, next } = unpackField(field, bytes, offset);
      fields[field] = value;
      offset = next;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Iso8583Error(why, field, { mti, fields });
    }
  }
  if (offset !== bytes.length)
    throw new Iso8583Error(`${bytes.length - offset} bytes follow the last field`, undefined, { mti, fields });
  return { mti, fields };
}
