/**
 * A card network's side of the ISO 8583 interface, for tests and benchmarks: one persistent TCP connection, many
 * requests under way at once, each answer matched to its request by STAN (11) and RRN (37), whatever its order.
 * It packs with the engine's own packer: the jPOS client (test/iso8583/jpos-client) is the independent one.
 */
import { connect, type Socket } from "node:net";
import { createFrameReader, frame } from "../../services/authorization-engine/src/network-interface/iso8583/framing";
import {
  pack,
  unpack,
  type FieldValue,
  type IsoMessage,
} from "../../services/authorization-engine/src/network-interface/iso8583/packer";

export type { IsoMessage };

export interface Iso8583Client {
  /** Sends `message` and resolves with the answer carrying its STAN and RRN (rejects after `timeoutMs`). */
  request(message: IsoMessage, timeoutMs?: number): Promise<IsoMessage>;
  /** Sends bytes as one frame, as they are. */
  sendRaw(bytes: Uint8Array): void;
  /** Answers nobody waited for (or that came after their wait), in arrival order. */
  unmatched: IsoMessage[];
  /** Every answer in arrival order. */
  received: IsoMessage[];
  close(): Promise<void>;
}

const keyOf = (fields: Record<number, FieldValue>) => `${String(fields[11] ?? "")}|${String(fields[37] ?? "")}`;

export function connectIso8583(port: number, host = "127.0.0.1"): Promise<Iso8583Client> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ port, host }, () => {
      socket.off("error", reject);
      resolve(client(socket));
    });
    socket.once("error", reject);
  });
}

function client(socket: Socket): Iso8583Client {
  socket.setNoDelay(true);
  const reader = createFrameReader();
  /** Who waits for which STAN and RRN: several for one key are answered in turn (a repeat, a duplicate). */
  const waiting = new Map<string, Array<(answer: IsoMessage) => void>>();
  const unmatched: IsoMessage[] = [];
  const received: IsoMessage[] = [];
  socket.on("data", (chunk: Buffer) => {
    for (const bytes of reader.push(chunk)) {
      const answer = unpack(bytes);
      received.push(answer);
      const key = keyOf(answer.fields);
      const next = waiting.get(key)?.shift();
      if (waiting.get(key)?.length === 0) waiting.delete(key);
      if (next) next(answer);
      else unmatched.push(answer);
    }
  });
  socket.on("error", () => undefined);
  return {
    unmatched,
    received,
    request(message, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const key = keyOf(message.fields);
        const answered = (answer: IsoMessage) => {
          clearTimeout(timer);
          resolve(answer);
        };
        const timer = setTimeout(() => {
          const queue = waiting.get(key) ?? [];
          queue.splice(queue.indexOf(answered), 1);
          reject(new Error(`no answer to ${message.mti} STAN ${String(message.fields[11])} in ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(key, [...(waiting.get(key) ?? []), answered]);
        socket.write(frame(pack(message)));
      });
    },
    sendRaw: (bytes) => void socket.write(frame(bytes)),
    close: () =>
      new Promise((resolve) => {
        socket.end(() => resolve());
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 1_000).unref();
      }),
  };
}

/** Field 7 (MMDDhhmmss, UTC) for `at`. */
export function transmissionTime(at = new Date()): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}`;
}

let stanCounter = 0;
/** A fresh STAN and RRN pair. */
export function nextTrace(): { stan: string; rrn: string } {
  stanCounter = (stanCounter + 1) % 1_000_000;
  const stan = String(stanCounter).padStart(6, "0");
  const rrn = `${String(Date.now()).slice(-6)}${stan}`;
  return { stan, rrn };
}

export interface TransactionFields {
  pan: string;
  amount?: number;
  processingCode?: string;
  currency?: string;
  expiry?: string;
  cvv2?: string;
  partialApproval?: boolean;
  mcc?: string;
  posEntryMode?: string;
  terminalId?: string;
  stan?: string;
  rrn?: string;
  extra?: Record<number, FieldValue>;
}

/** A transaction message as a network sends one: the fields of the interface's README, NGN by default. */
export function transactionMessage(mti: string, t: TransactionFields): IsoMessage {
  const trace = t.stan && t.rrn ? { stan: t.stan, rrn: t.rrn } : nextTrace();
  const subelements = [
    ...(t.cvv2 ? [`92${String(t.cvv2.length).padStart(2, "0")}${t.cvv2}`] : []),
    ...(t.partialApproval ? ["61011"] : []),
  ].join("");
  const fields: Record<number, FieldValue> = {
    2: t.pan,
    3: t.processingCode ?? "000000",
    4: String(t.amount ?? 0).padStart(12, "0"),
    7: transmissionTime(),
    11: trace.stan,
    12: "120000",
    13: "0101",
    18: t.mcc ?? "5411",
    22: t.posEntryMode ?? "051",
    32: "123456",
    37: trace.rrn,
    41: (t.terminalId ?? "TERM0001").padEnd(8, " "),
    42: "MERCHANT0000001",
    43: "MAINLAND FRESH MART      LAGOS        NG",
    49: t.currency ?? "566",
    ...t.extra,
  };
  if (t.expiry) fields[14] = t.expiry;
  if (subelements) fields[48] = subelements;
  return { mti, fields };
}

/** Field 90 naming the original message (its MTI and STAN). */
export const originalData = (mti: string, stan: string) => `${mti}${stan}${"0".repeat(32)}`;

/** Field 95: the amount a transaction ends at (a partial reversal), its fee as a debit. */
export const replacementAmounts = (amount: number, fee = 0) =>
  `${String(amount).padStart(12, "0")}${"0".repeat(12)}D${String(fee).padStart(8, "0")}D${"0".repeat(8)}`;
