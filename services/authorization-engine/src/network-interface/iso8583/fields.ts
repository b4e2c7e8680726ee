/**
 * The ISO 8583:1987 binary field layout, exactly as jPOS's ISO87BPackager defines it (org.jpos.iso.packager,
 * unchanged since 2011): BCD numerics, a binary bitmap, BCD length prefixes, ASCII text. Every field is here, the ones
 * the interface ignores too: a message is read field after field, so a field of unknown size would end the parse.
 *
 * | kind    | jPOS class  | on the wire                                                                          |
 * |---------|-------------|--------------------------------------------------------------------------------------|
 * | n       | IFB_NUMERIC | fixed `length` digits, BCD, two per byte, an odd count padded with a leading 0 nibble |
 * | llnum   | IFB_LLNUM   | 1-byte BCD digit count, then the digits BCD, an odd count padded with a trailing 0    |
 * | an      | IF_CHAR     | fixed `length` ASCII characters, padded on the right with spaces                      |
 * | llchar  | IFB_LLCHAR  | 1-byte BCD character count, then ASCII                                               |
 * | lllchar | IFB_LLLCHAR | 2-byte BCD character count (0–999), then ASCII                                       |
 * | b       | IFB_BINARY  | fixed `length` bytes                                                                 |
 * | amount  | IFB_AMOUNT  | one ASCII sign character (C or D), then `length` − 1 digits BCD                       |
 */
export type FieldKind = "n" | "llnum" | "an" | "llchar" | "lllchar" | "b" | "amount";

export interface FieldSpec {
  kind: FieldKind;
  /** The fixed length (n, an, b: digits, characters, bytes; amount: sign and digits), or the maximum (ll…, lll…). */
  length: number;
  name: string;
  /** BCD padding of an odd digit count: jPOS's `pad` argument (true: a leading 0 nibble; false: a trailing one). */
  leftPadded?: boolean;
}

const n = (length: number, name: string): FieldSpec => ({ kind: "n", length, name, leftPadded: true });
const llnum = (length: number, name: string): FieldSpec => ({ kind: "llnum", length, name, leftPadded: false });
const an = (length: number, name: string): FieldSpec => ({ kind: "an", length, name });
const llchar = (length: number, name: string): FieldSpec => ({ kind: "llchar", length, name });
const lllchar = (length: number, name: string): FieldSpec => ({ kind: "lllchar", length, name });
const b = (length: number, name: string): FieldSpec => ({ kind: "b", length, name });
const amount = (length: number, name: string, leftPadded = true): FieldSpec => ({
  kind: "amount",
  length,
  name,
  leftPadded,
});

const reserved = (name: string) => lllchar(999, name);

/** Fields 2–128 by number (1 is the secondary bitmap's presence bit, 0 the MTI: the packer handles both). */
export const ISO87B_FIELDS: Readonly<Record<number, FieldSpec>> = {
  2: llnum(19, "primary account number"),
  3: n(6, "processing code"),
  4: n(12, "amount, transaction"),
  5: n(12, "amount, settlement"),
  6: n(12, "amount, cardholder billing"),
  7: n(10, "transmission date and time"),
  8: n(8, "amount, cardholder billing fee"),
  9: n(8, "conversion rate, settlement"),
  10: n(8, "conversion rate, cardholder billing"),
  11: n(6, "system trace audit number"),
  12: n(6, "time, local transaction"),
  13: n(4, "date, local transaction"),
  14: n(4, "date, expiration"),
  15: n(4, "date, settlement"),
  16: n(4, "date, conversion"),
  17: n(4, "date, capture"),
  18: n(4, "merchant type"),
  19: n(3, "acquiring institution country code"),
  20: n(3, "PAN extended country code"),
  21: n(3, "forwarding institution country code"),
  22: n(3, "point of service entry mode"),
  23: n(3, "card sequence number"),
  24: n(3, "network international identifier"),
  25: n(2, "point of service condition code"),
  26: n(2, "point of service PIN capture code"),
  27: n(1, "authorization identification response length"),
  28: amount(9, "amount, transaction fee"),
  29: amount(9, "amount, settlement fee"),
  30: amount(9, "amount, transaction processing fee"),
  31: amount(9, "amount, settlement processing fee"),
  32: llnum(11, "acquiring institution identification code"),
  33: llnum(11, "forwarding institution identification code"),
  34: llchar(28, "PAN extended"),
  35: llnum(37, "track 2 data"),
  36: lllchar(104, "track 3 data"),
  37: an(12, "retrieval reference number"),
  38: an(6, "authorization identification response"),
  39: an(2, "response code"),
  40: an(3, "service restriction code"),
  41: an(8, "card acceptor terminal identification"),
  42: an(15, "card acceptor identification code"),
  43: an(40, "card acceptor name/location"),
  44: llchar(25, "additional response data"),
  45: llchar(76, "track 1 data"),
  46: lllchar(999, "additional data, ISO"),
  47: lllchar(999, "additional data, national"),
  48: lllchar(999, "additional data, private"),
  49: an(3, "currency code, transaction"),
  50: an(3, "currency code, settlement"),
  51: an(3, "currency code, cardholder billing"),
  52: b(8, "PIN data"),
  53: n(16, "security related control information"),
  54: lllchar(120, "additional amounts"),
  55: reserved("reserved ISO"),
  56: reserved("reserved ISO"),
  57: reserved("reserved national"),
  58: reserved("reserved national"),
  59: reserved("reserved national"),
  60: reserved("reserved private"),
  61: reserved("reserved private"),
  62: reserved("reserved private"),
  63: reserved("reserved private"),
  64: b(8, "message authentication code"),
  65: b(1, "bitmap, extended"),
  66: n(1, "settlement code"),
  67: n(2, "extended payment code"),
  68: n(3, "receiving institution country code"),
  69: n(3, "settlement institution country code"),
  70: n(3, "network management information code"),
  71: n(4, "message number"),
  72: n(4, "message number, last"),
  73: n(6, "date, action"),
  74: n(10, "credits, number"),
  75: n(10, "credits, reversal number"),
  76: n(10, "debits, number"),
  77: n(10, "debits, reversal number"),
  78: n(10, "transfer, number"),
  79: n(10, "transfer, reversal number"),
  80: n(10, "inquiries, number"),
  81: n(10, "authorizations, number"),
  82: n(12, "credits, processing fee amount"),
  83: n(12, "credits, transaction fee amount"),
  84: n(12, "debits, processing fee amount"),
  85: n(12, "debits, transaction fee amount"),
  86: n(16, "credits, amount"),
  87: n(16, "credits, reversal amount"),
  88: n(16, "debits, amount"),
  89: n(16, "debits, reversal amount"),
  90: n(42, "original data elements"),
  91: an(1, "file update code"),
  92: an(2, "file security code"),
  93: an(6, "response indicator"),
  94: an(7, "service indicator"),
  95: an(42, "replacement amounts"),
  96: b(16, "message security code"),
  97: amount(17, "amount, net settlement", false),
  98: an(25, "payee"),
  99: llnum(11, "settlement institution identification code"),
  100: llnum(11, "receiving institution identification code"),
  101: llchar(17, "file name"),
  102: llchar(28, "account identification 1"),
  103: llchar(28, "account identification 2"),
  104: lllchar(100, "transaction description"),
  ...Object.fromEntries(
    Array.from({ length: 23 }, (_, i) => {
      const field = 105 + i;
      const name = field <= 111 ? "reserved ISO" : field <= 119 ? "reserved national" : "reserved private";
      return [field, reserved(name)];
    }),
  ),
  128: b(8, "message authentication code 2"),
};

/** Fields whose values are bytes (Uint8Array); every other field's value is a string. */
export const isBinaryField = (field: number) => ISO87B_FIELDS[field]?.kind === "b";
