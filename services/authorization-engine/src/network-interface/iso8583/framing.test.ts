import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFrameReader, frame, MAX_FRAME_BYTES } from "./framing";

const bytes = (...values: number[]) => Buffer.from(values);

describe("2-byte big-endian length framing", () => {
  it("prefixes a message with its length", () => {
    expect(frame(bytes(1, 2, 3))).toEqual(bytes(0, 3, 1, 2, 3));
    expect(frame(Buffer.alloc(300)).subarray(0, 2)).toEqual(bytes(0x01, 0x2c));
  });

  it("refuses a message longer than 65535 bytes", () => {
    expect(() => frame(Buffer.alloc(MAX_FRAME_BYTES + 1))).toThrow(/does not fit/);
  });

  it.each<[string, Buffer[], Buffer[], number]>([
    ["one frame in one chunk", [bytes(0, 2, 7, 8)], [bytes(7, 8)], 0],
    ["two frames in one chunk", [bytes(0, 1, 7, 0, 1, 8)], [bytes(7), bytes(8)], 0],
    ["a frame split inside its length", [bytes(0), bytes(2, 7, 8)], [bytes(7, 8)], 0],
    ["a frame split inside its body", [bytes(0, 3, 7), bytes(8, 9)], [bytes(7, 8, 9)], 0],
    ["a keep-alive (length 0) is skipped", [bytes(0, 0, 0, 1, 5)], [bytes(5)], 0],
    ["an unfinished frame waits", [bytes(0, 5, 1, 2)], [], 4],
  ])("%s", (_case, chunks, expected, left) => {
    const reader = createFrameReader();
    expect(chunks.flatMap((c) => reader.push(c))).toEqual(expected);
    expect(reader.buffered()).toBe(left);
  });

  it("gives back every message, however the stream is cut", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 50 }), { maxLength: 10 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
        (messages, cuts) => {
          const stream = Buffer.concat(messages.map((m) => frame(m)));
          const reader = createFrameReader();
          const read: Buffer[] = [];
          for (let at = 0, i = 0; at < stream.length; i++) {
            const size = cuts[i % cuts.length]!;
            read.push(...reader.push(stream.subarray(at, at + size)));
            at += size;
          }
          expect(read.map((m) => m.toString("hex"))).toEqual(messages.map((m) => Buffer.from(m).toString("hex")));
          expect(reader.buffered()).toBe(0);
        },
      ),
    );
  });
});
