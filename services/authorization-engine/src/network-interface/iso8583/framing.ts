/**
 * Framing on the TCP stream: each message is preceded by its length in 2 bytes, big-endian (jPOS's NACChannel and
 * PostChannel without a header). A frame of length 0 is a keep-alive some networks send: it is skipped.
 */
export const MAX_FRAME_BYTES = 0xffff;

export function frame(message: Uint8Array): Buffer {
  if (message.length > MAX_FRAME_BYTES) throw new Error(`a message of ${message.length} bytes does not fit a frame`);
  const out = Buffer.allocUnsafe(2 + message.length);
  out.writeUInt16BE(message.length, 0);
  out.set(message, 2);
  return out;
}

/** Cuts a byte stream into frames: `push` each chunk as it comes, get the complete messages it finished. */
export function createFrameReader() {
  let pending: Buffer = Buffer.alloc(0);
  return {
    push(chunk: Buffer): Buffer[] {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const messages: Buffer[] = [];
      let offset = 0;
      while (pending.length - offset >= 2) {
        const length = pending.readUInt16BE(offset);
        if (pending.length - offset - 2 < length) break;
        if (length > 0) messages.push(Buffer.from(pending.subarray(offset + 2, offset + 2 + length)));
        offset += 2 + length;
      }
      pending = pending.subarray(offset);
      return messages;
    },
    /** Bytes received that do not make a whole frame yet. */
    buffered: () => pending.length,
  };
}
