/**
 * Binary-coded decimal: two digits a byte, high nibble first. An odd count of digits takes one padding nibble (0),
 * before the digits (left-padded) or after them (right-padded), as jPOS's BCDInterpreter does.
 */

export const bcdByteLength = (digits: number) => (digits + 1) >> 1;

/** Writes `digits` (0–9 only: the caller checked) into `out` at `offset`; returns the bytes written. */
export function writeBcd(digits: string, leftPadded: boolean, out: Uint8Array, offset: number): number {
  const padded = digits.length % 2 === 0 ? digits : leftPadded ? `0${digits}` : `${digits}0`;
  for (let i = 0; i < padded.length; i += 2) {
    out[offset + i / 2] = ((padded.charCodeAt(i) - 48) << 4) | (padded.charCodeAt(i + 1) - 48);
  }
  return padded.length / 2;
}

/**
 * Reads `digits` digits at `offset`; undefined when a nibble that should be a digit is not one (A–F), or the padding
 * nibble of an odd count is not 0 (what jPOS writes there: anything else means the bytes are not this layout).
 */
export function readBcd(bytes: Uint8Array, offset: number, digits: number, leftPadded: boolean): string | undefined {
  const length = bcdByteLength(digits);
  let text = "";
  for (let i = 0; i < length; i++) {
    const byte = bytes[offset + i]!;
    const high = byte >> 4;
    const low = byte & 0x0f;
    if (high > 9 || low > 9) return undefined;
    text += String(high) + String(low);
  }
  if (text.length === digits) return text;
  const padding = leftPadded ? text[0] : text[text.length - 1];
  if (padding !== "0") return undefined;
  return leftPadded ? text.slice(1) : text.slice(0, digits);
}
