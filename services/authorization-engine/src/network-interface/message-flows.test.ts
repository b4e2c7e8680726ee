import { describe, expect, it } from "vitest";
import { channelOf, flowOf, type Flow } from "./message-flows";
import type { MessageClass, TransactionMessage } from "./messages";

const message = (
  messageClass: MessageClass,
  processingCode: string,
  amount: number,
  replacement?: TransactionMessage["replacement"],
) => ({ messageClass, processingCode, amount, replacement }) as TransactionMessage;

describe("which engine flow a network message goes to", () => {
  it.each<[string, TransactionMessage, Flow]>([
    ["0100 purchase for an amount: a capture", message("010", "000000", 500), { kind: "authorize", type: "capture" }],
    ["0100 cash for an amount: a capture", message("010", "010000", 500), { kind: "authorize", type: "capture" }],
    ["0100 for 0: a check (account verification)", message("010", "000000", 0), { kind: "authorize", type: "check" }],
    ["0100 balance inquiry (31): a check", message("010", "310000", 0), { kind: "authorize", type: "check" }],
    [
      "0100 funds inquiry (30) with an amount: a check",
      message("010", "300000", 500),
      { kind: "authorize", type: "check" },
    ],
    ["0200 purchase: a capture", message("020", "000000", 500), { kind: "authorize", type: "capture" }],
    ["0200 balance inquiry: a check", message("020", "310000", 0), { kind: "authorize", type: "check" }],
    ["0200 for 0", message("020", "000000", 0), { kind: "unsupported", why: "a financial request for 0" }],
    [
      "0100 refund (20)",
      message("010", "200000", 500),
      { kind: "unsupported", why: "transaction type 20 (only 00, 01, 30, 31)" },
    ],
    [
      "0200 payment (50)",
      message("020", "500000", 500),
      { kind: "unsupported", why: "transaction type 50 (only 00, 01, 30, 31)" },
    ],
    ["0120 advice", message("012", "000000", 500), { kind: "advice" }],
    ["0400 without field 95: full", message("040", "000000", 500), { kind: "reverse" }],
    ["0420 with field 95 at 0: full", message("042", "000000", 500, { amount: 0, fee: 0 }), { kind: "reverse" }],
    [
      "0420 with field 95: partial, the amount it ends at",
      message("042", "000000", 500, { amount: 300, fee: 10 }),
      { kind: "lower-amount", amount: 300, fees: 10 },
    ],
    [
      "0400 with field 95: partial too",
      message("040", "000000", 500, { amount: 300, fee: 0 }),
      { kind: "lower-amount", amount: 300, fees: 0 },
    ],
  ])("%s", (_case, m, flow) => {
    expect(flowOf(m)).toEqual(flow);
  });
});

describe("the engine's channel of a network message", () => {
  it.each([
    ["MCC 6011", { mcc: "6011", posEntryMode: "051", processingCode: "000000" }, "atm"],
    ["a cash transaction", { mcc: "5411", posEntryMode: "051", processingCode: "010000" }, "atm"],
    ["chip", { mcc: "5411", posEntryMode: "051", processingCode: "000000" }, "pos"],
    ["contactless", { mcc: "5411", posEntryMode: "071", processingCode: "000000" }, "pos"],
    ["magnetic stripe", { mcc: "5411", posEntryMode: "901", processingCode: "000000" }, "pos"],
    ["keyed", { mcc: "5411", posEntryMode: "012", processingCode: "000000" }, "online"],
    ["credential on file", { mcc: "5411", posEntryMode: "102", processingCode: "000000" }, "online"],
    ["e-commerce", { mcc: "5999", posEntryMode: "812", processingCode: "000000" }, "online"],
    ["no entry mode", { mcc: undefined, posEntryMode: undefined, processingCode: "000000" }, "pos"],
  ] as const)("%s: %s", (_case, m, channel) => {
    expect(channelOf(m)).toBe(channel);
  });
});
