/**
 * What a network's message says, read from its ISO87B fields (README.md, "Fields"): validated with zod, as every edge
 * of the platform is. A message that lacks a field its type needs, or holds one the layout allows but the meaning
 * does not (a month 13), is a format error: the answer is response code 30, naming no value. Pure.
 */
import { z } from "zod";
import type { IsoMessage } from "./iso8583/packer";

/** The MTI without its origin digit: what a message and its repeats (0101, 0121, 0201, 0401, 0421) share. */
export type MessageClass = "010" | "012" | "020" | "040" | "042";
export const TRANSACTION_CLASSES: readonly MessageClass[] = ["010", "012", "020", "040", "042"];

/** Field 70 of an 0800: sign-on, sign-off, echo. */
export const NETWORK_MANAGEMENT_CODES = { "001": "sign-on", "002": "sign-off", "301": "echo" } as const;

export class FormatError extends Error {
  constructor(readonly field: number | undefined) {
    super(field === undefined ? "the message could not be read" : `field ${field} is missing or malformed`);
    this.name = "FormatError";
  }
}

/** A transaction message: an authorization, a financial request, an advice or a reversal. */
export interface TransactionMessage {
  mti: string;
  messageClass: MessageClass;
  pan: string;
  /** Field 3: its first two digits are the transaction type (00 purchase, 01 cash, 20 refund, 30/31 inquiries). */
  processingCode: string;
  /** Field 4, minor units of field 49's currency; 0 when absent. */
  amount: number;
  /** Field 28 with sign D: a fee the network charges the cardholder (C, a credit, is not supported: 0). */
  fee: number;
  /** Field 49, ISO 4217 numeric. */
  currency: string | undefined;
  stan: string;
  /** Field 37 as sent (12 characters, spaces kept: the answer echoes it). */
  rrn: string;
  /** Field 41 as sent, or 8 spaces when absent. */
  terminalId: string;
  merchantId: string | undefined;
  cardAcceptorNameLocation: string | undefined;
  mcc: string | undefined;
  /** Field 22: its first two digits are the PAN entry mode. */
  posEntryMode: string | undefined;
  /** Field 14, YYMM. */
  expiry: string | undefined;
  /** Field 48, subelement 92. */
  cvv2: string | undefined;
  /** Field 48, subelement 61, position 1 is 1: the terminal takes a partial approval. */
  partialApprovalSupported: boolean;
  acquirerId: string | undefined;
  /** Field 39 of an advice: what the network decided in the issuer's stead. */
  adviceResponseCode: string | undefined;
  /** Field 90 of a reversal: the original message's MTI and STAN. */
  original: { mti: string; stan: string } | undefined;
  /** Field 95 of a reversal: the amount the transaction ends at, and its fee (a partial reversal); none: full. */
  replacement: { amount: number; fee: number } | undefined;
}

const numeric = (length: number) => z.string().regex(new RegExp(`^\\d{${length}}$`));
const text = z.string();
const month = /^\d{2}(0[1-9]|1[0-2])$/;

const transactionFields = z.object({
  2: z.string().regex(/^\d{12,19}$/),
  3: numeric(6),
  4: numeric(12).optional(),
  11: numeric(6),
  14: z.string().regex(month).optional(),
  18: numeric(4).optional(),
  22: numeric(3).optional(),
  28: z
    .string()
    .regex(/^[CD]\d{8}$/)
    .optional(),
  32: z.string().optional(),
  37: z.string().regex(/^[\x20-\x7e]{12}$/),
  39: z.string().optional(),
  41: text.optional(),
  42: text.optional(),
  43: text.optional(),
  48: text.optional(),
  49: numeric(3).optional(),
  90: numeric(42).optional(),
  95: z
    .string()
    .regex(/^\d{12}/)
    .optional(),
});

/** The first field a zod failure names, for the format error. */
function failedField(error: z.ZodError): number | undefined {
  const field = Number(error.issues[0]?.path[0]);
  return Number.isInteger(field) ? field : undefined;
}

/** Field 48 as subelements: 2-digit tag, 2-digit length, value (the layout of Mastercard's DE 48 without its TCC). */
export function subelementsOf(field48: string | undefined): Map<string, string> {
  const found = new Map<string, string>();
  let at = 0;
  while (field48 !== undefined && at < field48.length) {
    const tag = field48.slice(at, at + 2);
    const length = Number(field48.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(tag) || !/^\d{2}$/.test(field48.slice(at + 2, at + 4)) || at + 4 + length > field48.length)
      throw new FormatError(48);
    found.set(tag, field48.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return found;
}

const trimmed = (value: string | undefined) => {
  const t = value?.trim();
  return t ? t : undefined;
};

function replacementOf(field95: string | undefined) {
  if (field95 === undefined) return undefined;
  const fee = /^[CD]\d{8}$/.test(field95.slice(24, 33)) ? field95.slice(24, 33) : "C00000000";
  return { amount: Number(field95.slice(0, 12)), fee: fee.startsWith("D") ? Number(fee.slice(1)) : 0 };
}

/** A transaction message's meaning; throws FormatError. `messageClass` comes from the caller (classOf). */
export function readTransaction(message: IsoMessage, messageClass: MessageClass): TransactionMessage {
  const parsed = transactionFields.safeParse(message.fields);
  if (!parsed.success) throw new FormatError(failedField(parsed.error));
  const f = parsed.data;
  const isReversal = messageClass === "040" || messageClass === "042";
  if (isReversal && f[90] === undefined) throw new FormatError(90);
  if (!isReversal && f[49] === undefined) throw new FormatError(49);
  const subelements = subelementsOf(f[48]);
  const cvv2 = subelements.get("92");
  if (cvv2 !== undefined && !/^\d{3,4}$/.test(cvv2)) throw new FormatError(48);
  const fee = f[28]?.startsWith("D") ? Number(f[28].slice(1)) : 0;
  return {
    mti: message.mti,
    messageClass,
    pan: f[2],
    processingCode: f[3],
    amount: Number(f[4] ?? "0"),
    fee,
    currency: f[49],
    stan: f[11],
    rrn: f[37],
    terminalId: f[41] ?? " ".repeat(8),
    merchantId: trimmed(f[42]),
    cardAcceptorNameLocation: trimmed(f[43]),
    mcc: f[18],
    posEntryMode: f[22],
    expiry: f[14],
    cvv2,
    partialApprovalSupported: subelements.get("61")?.startsWith("1") ?? false,
    acquirerId: f[32],
    adviceResponseCode: f[39],
    original: f[90] ? { mti: f[90].slice(0, 4), stan: f[90].slice(4, 10) } : undefined,
    replacement: replacementOf(f[95]),
  };
}

/** The class of a transaction request or advice (origin digit 0 or 1); undefined for anything else. */
export function classOf(mti: string): MessageClass | undefined {
  const messageClass = mti.slice(0, 3) as MessageClass;
  return TRANSACTION_CLASSES.includes(messageClass) && /^[01]$/.test(mti[3]!) ? messageClass : undefined;
}

/** The MTI of the answer: function digit + 1, origin 0 (0100 and 0101 → 0110, 0420 → 0430); none for an answer. */
export function answerMtiOf(mti: string): string | undefined {
  const fn = Number(mti[2]);
  return /^\d{4}$/.test(mti) && fn % 2 === 0 ? `${mti.slice(0, 2)}${fn + 1}0` : undefined;
}

/** What identifies a message and its repeats within a business and mode (engine.network_messages' key). */
export interface MessageKey {
  messageClass: MessageClass;
  terminalId: string;
  rrn: string;
  stan: string;
}

export const keyOf = (m: TransactionMessage): MessageKey => ({
  messageClass: m.messageClass,
  terminalId: m.terminalId,
  rrn: m.rrn,
  stan: m.stan,
});

const referencePart = (value: string) => value.replace(/[^A-Za-z0-9]/g, "");

/**
 * The engine's network reference of the authorization a message makes (unique per card): its class, RRN, STAN and
 * terminal. A repeat, or a concurrent duplicate, is the same authorization and charges nothing more; a reversal finds
 * its original by the original's class and STAN (field 90) with its own RRN and terminal.
 */
export const networkReference = (messageClass: string, rrn: string, stan: string, terminalId: string) =>
  [messageClass, referencePart(rrn), stan, referencePart(terminalId)].filter(Boolean).join("-");

/** First 6 and last 4 digits: the only form a PAN is logged or stored in beside the vault. */
export const maskPan = (pan: string) => `${pan.slice(0, 6)}${"*".repeat(Math.max(0, pan.length - 10))}${pan.slice(-4)}`;
